import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "../../support/fixtures.ts";
import { runCli } from "../../support/run-cli.ts";
import { runCliInProcess } from "../../support/run-in-process.ts";

const statusOf = (stdout: string, id: string) =>
  new RegExp(`^ +(\\w+) +${id.replace(".", "\\.")} `, "m").exec(stdout)?.[1];

describe("event-harness verify-rotation against the embedded sandbox", () => {
  it.for([
    // [sandbox rotation, expectations, exit code, old-secret status, old-tokens status]
    [[], ["--expect-old", "refused", "--expect-old-tokens", "valid"], 0, "PASS", "PASS"],
    [["--sandbox-overlap", "60"], ["--expect-old", "accepted"], 0, "PASS", "PASS"],
    [["--sandbox-revoke"], ["--expect-old-tokens", "revoked"], 0, "PASS", "PASS"],
    [
      ["--sandbox-overlap", "60", "--sandbox-revoke"],
      ["--expect-old", "accepted", "--expect-old-tokens", "revoked"],
      0,
      "PASS",
      "PASS",
    ],
    [[], ["--expect-old", "accepted"], 1, "FAIL", "PASS"],
    [["--sandbox-overlap", "60"], ["--expect-old", "refused"], 1, "FAIL", "PASS"],
    [[], ["--expect-old-tokens", "revoked"], 1, "PASS", "FAIL"],
    [["--sandbox-revoke"], ["--expect-old-tokens", "valid"], 1, "PASS", "FAIL"],
  ] as const)(
    "rotation %j, expecting %j: exit %i",
    async ([rotation, expectations, code, oldSecret, oldTokens], { tmpDir }) => {
      const run = await runCliInProcess([
        "verify-rotation",
        ...rotation,
        ...expectations,
        "--report-dir",
        tmpDir,
      ]);
      expect(run.code, run.stderr).toBe(code);
      expect(statusOf(run.stdout, "rotation.new-secret")).toBe("PASS");
      expect(statusOf(run.stdout, "rotation.old-secret")).toBe(oldSecret);
      expect(statusOf(run.stdout, "rotation.old-tokens")).toBe(oldTokens);
    },
  );

  it("says in plain words that the old secret still got a token when it was expected refused", async ({
    tmpDir,
  }) => {
    const run = await runCliInProcess([
      "verify-rotation",
      "--sandbox-overlap",
      "60",
      "--expect-old",
      "refused",
      "--report-dir",
      tmpDir,
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /FAIL +rotation\.old-secret +MUST +expected the old secret to be refused, but it was accepted: a token was issued \(200\)/,
    );
    expect(run.stdout).not.toContain("it was a token");
  });

  it("only observes what the user states no expectation for", async ({ tmpDir }) => {
    const run = await runCliInProcess(["verify-rotation", "--report-dir", tmpDir]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/PASS +rotation\.old-secret +INFO +the old secret is refused/);
    expect(run.stdout).toMatch(/PASS +rotation\.old-tokens +INFO +the earlier token is valid/);
  });

  it.each([
    [["--expect-old", "maybe"], /--expect-old takes one of refused, accepted/],
    [["--sandbox-overlap=-1"], /--sandbox-overlap takes a whole number/],
  ])("exits 2 on %j", async (args, message) => {
    const run = await runCliInProcess(["verify-rotation", ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });
});

describe("event-harness verify-rotation against an external target", () => {
  // A child process, so whatever the harness writes anywhere is searched for the secrets and the token.
  it("verifies a rotation done by someone else, and never shows either secret or the old token", async ({
    tmpDir,
    sandbox: start,
  }) => {
    const sandbox = await start({
      clients: [{ clientId: "rotating-client", clientSecret: "old-secret-0a1b2c3d4e" }],
    });
    const oldToken = await sandbox.issueToken("rotating-client");
    const rotated = await sandbox.rotateSecret("rotating-client", {
      overlapSeconds: 0,
      revokeTokens: true,
    });
    const dir = tmpDir;
    const run = await runCli(
      ["verify-rotation", "--expect-old", "refused", "--expect-old-tokens", "revoked", "--report-dir", dir],
      {
        EVENT_API_AUTH_URL: sandbox.authUrl,
        EVENT_API_BASE_URL: sandbox.baseUrl,
        EVENT_API_CLIENT_ID: "rotating-client",
        EVENT_API_CLIENT_SECRET: rotated.clientSecret,
        EVENT_API_OLD_CLIENT_SECRET: "old-secret-0a1b2c3d4e",
        EVENT_API_OLD_ACCESS_TOKEN: oldToken,
      },
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const files = await readdir(dir);
    const everything = [
      run.stdout,
      run.stderr,
      ...(await Promise.all(files.map((f) => readFile(join(dir, f), "utf8")))),
    ].join("\n");
    for (const leak of [rotated.clientSecret, "old-secret-0a1b2c3d4e", oldToken])
      expect(everything).not.toContain(leak);
    expect(everything).not.toMatch(/eyJ[A-Za-z0-9_-]{8,}/);
    expect(everything).toContain("<OLD_ACCESS_TOKEN>");
  });

  const nowhere = {
    EVENT_API_AUTH_URL: "http://127.0.0.1:9/auth",
    EVENT_API_BASE_URL: "http://127.0.0.1:9/api",
    EVENT_API_CLIENT_ID: "x",
    EVENT_API_CLIENT_SECRET: "new-secret-4e5f",
  };

  it.for([
    [
      ["--expect-old-tokens", "valid"],
      {},
      /--expect-old-tokens valid needs a token obtained before the rotation \(EVENT_API_OLD_ACCESS_TOKEN or --old-token-file FILE\)/,
    ],
    [
      ["--expect-old", "refused"],
      {},
      /--expect-old refused needs the secret from before the rotation \(EVENT_API_OLD_CLIENT_SECRET or --old-secret-file FILE\)/,
    ],
    [
      ["--expect-old", "refused"],
      { EVENT_API_OLD_CLIENT_SECRET: "new-secret-4e5f" },
      /the old secret \(EVENT_API_OLD_CLIENT_SECRET or --old-secret-file FILE\) is the same as the new one/,
    ],
    [
      ["--expect-old-tokens", "valid"],
      { EVENT_API_OLD_ACCESS_TOKEN: "t".repeat(64 * 1024 + 1) },
      /the old token \(EVENT_API_OLD_ACCESS_TOKEN or --old-token-file FILE\) has 65,537 characters, more than the 65,536 the harness can hide in its reports/,
    ],
    [
      ["--old-token-file", "/nonexistent/old.token"],
      {},
      /--old-token-file \/nonexistent\/old\.token: cannot read it: no such file \(ENOENT\)/,
    ],
  ] as const)("exits 2 before any request on %j with %j", async ([args, env, message], { tmpDir }) => {
    // The target does not listen: a request would make it exit 3, so exit 2 shows nothing was sent.
    const run = await runCliInProcess(
      ["verify-rotation", ...args, "--report-dir", join(tmpDir, "unchecked")],
      {
        ...nowhere,
        ...env,
      },
    );
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout + run.stderr).not.toContain("new-secret-4e5f");
  });

  it("reads the old secret and the old token from files and decides both expectations", async ({
    tmpDir: reports,
    sandbox: start,
  }) => {
    const sandbox = await start({
      clients: [{ clientId: "rotating-client", clientSecret: "old-secret-5f6a7b8c9d" }],
    });
    const oldToken = await sandbox.issueToken("rotating-client");
    const rotated = await sandbox.rotateSecret("rotating-client", {
      overlapSeconds: 0,
      revokeTokens: false,
    });
    await writeFile(join(reports, "old.secret"), "old-secret-5f6a7b8c9d\n", { mode: 0o600 });
    await writeFile(join(reports, "old.token"), oldToken, { mode: 0o600 });
    const run = await runCliInProcess(
      [
        "verify-rotation",
        "--expect-old",
        "refused",
        "--expect-old-tokens",
        "valid",
        "--old-secret-file",
        join(reports, "old.secret"),
        "--old-token-file",
        join(reports, "old.token"),
        "--report-dir",
        join(reports, "files"),
      ],
      {
        EVENT_API_AUTH_URL: sandbox.authUrl,
        EVENT_API_BASE_URL: sandbox.baseUrl,
        EVENT_API_CLIENT_ID: "rotating-client",
        EVENT_API_CLIENT_SECRET: rotated.clientSecret,
      },
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/PASS +rotation\.old-secret +MUST +the old secret is refused/);
    expect(run.stdout).toMatch(/PASS +rotation\.old-tokens +MUST +the earlier token is valid/);
  });

  it("refuses the embedded sandbox's rotation options for an external target", async () => {
    const run = await runCliInProcess(["verify-rotation", "--sandbox-revoke"], {
      EVENT_API_AUTH_URL: "http://127.0.0.1:9/auth",
      EVENT_API_BASE_URL: "http://127.0.0.1:9/api",
      EVENT_API_CLIENT_ID: "x",
      EVENT_API_CLIENT_SECRET: "y-secret",
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/apply only to the embedded sandbox/);
  });
});
