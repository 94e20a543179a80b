import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach } from "vitest";
import { sandboxRotateCommand } from "../../../cli/commands/sandbox-rotate.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import type { RotationAdminOptions, RotationAdminServer } from "../../support/rotation-admin-server.ts";
import { rotationAnswer, startRotationAdminServer } from "../../support/rotation-admin-server.ts";
import { runInProcess } from "../../support/run-in-process.ts";

// sandbox-rotate against an auth server that echoes credentials and answers what no sandbox answers.
const ADMIN_TOKEN = "hostile-admin-token-6c1d9e0f2a";
const CURRENT_SECRET = "hostile-current-secret-8b3e";
const CLIENT_ID = "rotate-client";
/** C0/C1 controls and the line separators: no output may carry one raw (a newline only where the harness puts one). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching these characters is the point.
const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202e]/;

let server: RotationAdminServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function rotateAgainst(
  options: RotationAdminOptions,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
) {
  server = await startRotationAdminServer(options);
  const run = await runInProcess(
    sandboxRotateCommand,
    ["--auth-url", server.authUrl, "--client-id", CLIENT_ID, "--timeout", "5", ...args],
    { EVENT_HARNESS_ADMIN_TOKEN: ADMIN_TOKEN, ...env },
  );
  return { ...run, rotations: server.rotations() };
}

/** Every form in which an echo may carry `value`; a client secret also inside HTTP Basic credentials. */
function forms(value: string, basic = false): string[] {
  return [
    value,
    encodeURIComponent(value),
    Buffer.from(value).toString("base64"),
    ...(basic ? [Buffer.from(`${CLIENT_ID}:${value}`).toString("base64")] : []),
  ];
}

function expectInert(outputs: readonly string[]): void {
  for (const output of outputs) {
    expect(CONTROLS.test(output), JSON.stringify(output)).toBe(false);
    expect(
      output.split("\n").filter((line) => /^\s*::/.test(line)),
      output,
    ).toEqual([]);
  }
}

describe("sandbox-rotate never shows a credential a server echoes", () => {
  it.each([
    [401, 2],
    [404, 2],
    [500, 3],
  ])("an admin refusal %i that quotes the admin token: exit %i, the token nowhere", async (status, code) => {
    const run = await rotateAgainst(
      {
        rotate: async ({ authorization }) => ({
          status,
          body: {
            error: `denied ${authorization}`,
            error_description: `you sent ${forms(authorization.replace(/^Bearer /, "")).join(" ")}\u001b[2J\n::error::forged`,
          },
        }),
      },
      ["--show-secret"],
    );
    expect(run.code, run.stderr).toBe(code);
    for (const output of [run.stdout, run.stderr]) {
      for (const form of forms(ADMIN_TOKEN)) expect(output).not.toContain(form);
    }
    expectInert([run.stdout, run.stderr]);
  });

  it.for([
    [401, 2],
    [500, 3],
  ] as const)(
    "a token endpoint %i that quotes the current secret: exit %i, nothing rotated, the secret nowhere",
    async ([status, code], { tmpDir: dir }) => {
      const run = await rotateAgainst(
        {
          token: (form) => ({
            status,
            body: {
              error: `invalid_client ${forms(form.get("client_secret") ?? "", true).join(" ")}\u0007`,
              error_description: `secret ${form.get("client_secret")}`,
            },
          }),
          rotate: async () => ({ status: 200, body: rotationAnswer(CLIENT_ID) }),
        },
        ["--secret-file", path.join(dir, `echo-${status}.secret`)],
        { EVENT_API_CLIENT_SECRET: CURRENT_SECRET },
      );
      expect(run.code, run.stderr).toBe(code);
      expect(run.rotations).toBe(0);
      for (const output of [run.stdout, run.stderr]) {
        for (const form of forms(CURRENT_SECRET, true)) expect(output).not.toContain(form);
      }
      expectInert([run.stdout, run.stderr]);
    },
  );
});

describe("sandbox-rotate checks the admin answer before it writes or prints anything", () => {
  const invalid: Array<[string, Record<string, unknown>]> = [
    ["a not-before-policy no date can hold", { "not-before-policy": 1e20 }],
    ["an old_secret_valid_until no date can hold", { old_secret_valid_until: -1e300 }],
    ["an old_secret_valid_until that is text", { old_secret_valid_until: "soon" }],
    ["a client_secret with a line break and an escape", { client_secret: "s3cret\n\u001b[2J" }],
    ["a client_secret that starts a workflow command", { client_secret: "::add-mask::x" }],
    ["an empty client_secret", { client_secret: "" }],
    ["another client's id, with escapes", { client_id: "\u001b[2J\r\n::error::forged\u202e" }],
  ];
  for (const [what, overrides] of invalid) {
    it(`${what}: exit 3, no secret file, and the message says the secret may have changed`, async ({
      tmpDir: dir,
    }) => {
      const file = path.join(dir, `invalid-${what.replaceAll(/\W+/g, "-")}.secret`);
      const run = await rotateAgainst(
        { rotate: async () => ({ status: 200, body: rotationAnswer(CLIENT_ID, overrides) }) },
        ["--revoke", "--secret-file", file],
      );
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).not.toContain("internal error");
      expect(run.stderr).toContain(`client ${CLIENT_ID}`);
      expect(run.stderr).toContain("may have changed");
      expect(await readFile(file, "utf8").catch(() => undefined)).toBeUndefined();
      expect((await readdir(dir)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
      expectInert([run.stdout, run.stderr]);
    });
  }
});

describe("an error after the rotation says what was rotated and where the new secret is", () => {
  it("the new secret cannot be written: says it was rotated, and that the secret was kept nowhere", async ({
    tmpDir: dir,
  }) => {
    const file = path.join(dir, "blocked.secret");
    const run = await rotateAgainst(
      {
        rotate: async () => {
          // The path turns into a non-empty directory while the rotation is made: the rename onto it fails.
          await mkdir(path.join(file, "inside"), { recursive: true });
          return { status: 200, body: rotationAnswer(CLIENT_ID) };
        },
      },
      ["--secret-file", file],
    );
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).not.toContain("internal error");
    expect(run.stderr).toContain(`rotated the secret of client ${CLIENT_ID} at ${server?.authUrl}`);
    expect(run.stderr).toContain("blocked.secret");
    expect(run.stderr).toContain("kept nowhere");
    expect(run.stdout + run.stderr).not.toContain("rotated-secret-3f9a0c7d5e1b");
  });

  it("the old secret cannot be kept: says the new secret is in its file", async ({ tmpDir: dir }) => {
    const file = path.join(dir, "kept.secret");
    const run = await rotateAgainst(
      {
        token: () => ({ status: 200, body: { access_token: "old-token-0d9c8b7a6f5e", expires_in: 300 } }),
        rotate: async () => {
          await mkdir(path.join(`${file}.old-secret`, "inside"), { recursive: true });
          return { status: 200, body: rotationAnswer(CLIENT_ID) };
        },
      },
      ["--secret-file", file],
      { EVENT_API_CLIENT_SECRET: CURRENT_SECRET },
    );
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).not.toContain("internal error");
    expect(run.stderr).toContain(`rotated the secret of client ${CLIENT_ID} at ${server?.authUrl}`);
    expect(run.stderr).toMatch(/new secret is in \S*kept\.secret/);
    expect(await readFile(file, "utf8")).toBe("rotated-secret-3f9a0c7d5e1b");
    for (const output of [run.stdout, run.stderr]) {
      expect(output).not.toContain("rotated-secret-3f9a0c7d5e1b");
      expect(output).not.toContain(CURRENT_SECRET);
      expect(output).not.toContain("old-token-0d9c8b7a6f5e");
    }
  });

  it("a well-formed answer still rotates, and the client id it prints is the one asked for", async ({
    tmpDir: dir,
  }) => {
    const file = path.join(dir, "fine.secret");
    await writeFile(file, "previous");
    const run = await rotateAgainst(
      {
        rotate: async () => ({
          status: 200,
          body: rotationAnswer(CLIENT_ID, { "not-before-policy": 1_900_000_000 }),
        }),
      },
      ["--revoke", "--secret-file", file],
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Rotated the secret of client ${CLIENT_ID} at ${server?.authUrl}.`);
    expect(run.stdout).toContain("revoked (not-before-policy 1900000000, 2030-03-17T17:46:40Z)");
    expect(await readFile(file, "utf8")).toBe("rotated-secret-3f9a0c7d5e1b");
  });
});
