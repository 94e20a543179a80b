import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FaultName, RunningSandbox } from "../../../sandbox/index.ts";
import { startSandbox } from "../../../sandbox/index.ts";
import { startHostileServer } from "../../support/hostile-server.ts";
import { runCli } from "../../support/run-cli.ts";

const CLIENT_ID = "shop-1";
const SECRET = "preflight-test-secret-7a1c";
const REFUSED = `event-harness: the credentials for client ${CLIENT_ID} were refused (401 with --client-auth post, 401 with basic): check the client id and secret, or whether the secret was rotated`;

let reports: string;
beforeAll(async () => {
  reports = await mkdtemp(join(tmpdir(), "eah-preflight-"));
});
afterAll(async () => {
  await rm(reports, { recursive: true, force: true });
});

async function withSandbox<T>(
  use: (sandbox: RunningSandbox) => Promise<T>,
  options: { faults?: FaultName[]; secret?: string; tokenPath?: string } = {},
): Promise<T> {
  const sandbox = await startSandbox({
    port: 0,
    faults: options.faults ?? [],
    clients: [{ clientId: CLIENT_ID, clientSecret: options.secret ?? SECRET }],
    ...(options.tokenPath === undefined ? {} : { tokenPath: options.tokenPath }),
  });
  try {
    return await use(sandbox);
  } finally {
    await sandbox.close();
  }
}

function targetEnv(authUrl: string, baseUrl: string, secret = SECRET): NodeJS.ProcessEnv {
  return {
    EVENT_API_AUTH_URL: authUrl,
    EVENT_API_BASE_URL: baseUrl,
    EVENT_API_CLIENT_ID: CLIENT_ID,
    EVENT_API_CLIENT_SECRET: secret,
  };
}

/** The lines the harness says in its own name: the diagnosis must be the only one, said once. */
function harnessLines(run: { stderr: string }): string[] {
  return run.stderr.split("\n").filter((line) => line.startsWith("event-harness: "));
}

async function json(file: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
}

describe("contract: diagnose before judging", () => {
  it("a wrong secret: one sentence on the refused credentials, could-not-test (exit 3), every check SKIP", async () => {
    await withSandbox(async (sandbox) => {
      const dir = join(reports, "wrong-secret");
      const run = await runCli(
        ["contract", "--report-dir", dir],
        targetEnv(sandbox.authUrl, sandbox.baseUrl, "not-the-secret"),
      );
      expect(run.code).toBe(3);
      expect(harnessLines(run)).toEqual([REFUSED]);
      expect(run.stdout).not.toContain("FAIL");
      expect(run.stdout).toMatch(
        /^Verdict: COULD NOT DECIDE \(could not test the target: see above\) — \d+ SKIP /m,
      );
      const results = await json(join(dir, "results.json"));
      expect(results.verdict).toBe("undecided");
      expect(results.couldNotTest).toBe(REFUSED.slice("event-harness: ".length));
      const checks = results.checks as Array<{ status: string }>;
      expect(new Set(checks.map((check) => check.status))).toEqual(new Set(["SKIP"]));
      expect(await readFile(join(dir, "summary.md"), "utf8")).toContain(
        "⛔ Could not decide: could not test the target: the credentials for client shop-1 were refused",
      );
      expect(await readFile(join(dir, "junit.xml"), "utf8")).toContain("COULD NOT TEST: the credentials");
    });
  });

  it("an --auth-url that already ends in /oauth/token: not a token endpoint, did you mean --token-url (exit 3)", async () => {
    await withSandbox(async (sandbox) => {
      const run = await runCli(
        ["contract", "--report-dir", join(reports, "wrong-url")],
        targetEnv(sandbox.tokenUrl, sandbox.baseUrl),
      );
      expect(run.code).toBe(3);
      expect(harnessLines(run)).toEqual([
        `event-harness: ${sandbox.tokenUrl}/oauth/token is not a token endpoint: it answered 404 application/json "{"Message":"No resource at this path"}"; did you mean --token-url ${sandbox.tokenUrl}?`,
      ]);
      expect(run.stdout).not.toContain("FAIL");
    });
  });

  it("an --auth-url that is a realm's …/token endpoint gets the same suggestion", async () => {
    await withSandbox(
      async (sandbox) => {
        const run = await runCli(
          ["contract", "--report-dir", join(reports, "wrong-url-realm")],
          targetEnv(sandbox.tokenUrl, sandbox.baseUrl),
        );
        expect(run.code).toBe(3);
        expect(harnessLines(run)).toEqual([
          expect.stringMatching(
            new RegExp(
              `is not a token endpoint: it answered 404 .*; did you mean --token-url ${sandbox.tokenUrl}\\?$`,
            ),
          ),
        ]);
      },
      { tokenPath: "/realms/r/protocol/openid-connect/token" },
    );
  });

  it("a wrong --token-url on a server that publishes its metadata gets the discovered token endpoint suggested", async () => {
    await withSandbox(async (sandbox) => {
      const env = { ...targetEnv(sandbox.authUrl, sandbox.baseUrl), EVENT_API_AUTH_URL: "" };
      const run = await runCli(
        [
          "contract",
          "--token-url",
          `${sandbox.authUrl}/token`,
          "--report-dir",
          join(reports, "wrong-token-url"),
        ],
        env,
      );
      expect(run.code).toBe(3);
      expect(harnessLines(run)).toEqual([
        expect.stringMatching(
          new RegExp(
            `/auth/token is not a token endpoint: it answered 404 .*; did you mean --token-url ${sandbox.tokenUrl}\\?$`,
          ),
        ),
      ]);
    });
  });

  it("a server answering an HTML page: not a token endpoint, a short inert excerpt, exit 3", async () => {
    const server = await startHostileServer("html-page");
    try {
      const dir = join(reports, "html-page");
      const run = await runCli(
        ["contract", "--report-dir", dir],
        targetEnv(`${server.url}/auth`, `${server.url}/api`),
      );
      expect(run.code).toBe(3);
      const lines = harnessLines(run);
      expect(lines).toEqual([
        expect.stringMatching(
          /^event-harness: http:\/\/127\.0\.0\.1:\d+\/auth\/oauth\/token is not a token endpoint: it answered 200 text\/html "<!DOCTYPE html> <html lang="en"><head><title>Acme SSO/,
        ),
      ]);
      expect((lines[0] as string).length).toBeLessThan(250);
      expect(run.stderr).not.toContain("Please sign in again");
      expect(`${run.stdout}${run.stderr}`).not.toContain("\u001b");
      expect((await json(join(dir, "results.json"))).verdict).toBe("undecided");
    } finally {
      await server.close();
    }
  });

  it("credentials refused with the defaulted post but not with basic: goes on with basic, token.form-auth names it", async () => {
    await withSandbox(
      async (sandbox) => {
        const dir = join(reports, "switch-post");
        const run = await runCli(
          ["contract", "--only", "token.issued,token.form-auth,events.accepted", "--report-dir", dir],
          targetEnv(sandbox.authUrl, sandbox.baseUrl),
        );
        expect(run.code, run.stderr).toBe(0);
        expect(harnessLines(run)).toEqual([
          `event-harness: the credentials for client ${CLIENT_ID} were refused with --client-auth post but work with --client-auth basic: going on with basic`,
        ]);
        expect(run.stdout).toMatch(/PASS +token\.issued /);
        expect(run.stdout).toMatch(/PASS +events\.accepted /);
        expect(run.stdout).toMatch(/WARN +token\.form-auth +SHOULD +.*; works with --client-auth basic$/m);
        expect(((await json(join(dir, "results.json"))).target as { clientAuth: string }).clientAuth).toBe(
          "basic",
        );
      },
      { faults: ["token-basic-only"] },
    );
  });

  it("credentials refused with a given --client-auth basic but not with post: judged as given, token.issued FAILs", async () => {
    await withSandbox(
      async (sandbox) => {
        const dir = join(reports, "binding-basic");
        const run = await runCli(
          [
            "contract",
            "--only",
            "token.issued,token.basic-auth,events.accepted",
            "--client-auth",
            "basic",
            "--report-dir",
            dir,
          ],
          targetEnv(sandbox.authUrl, sandbox.baseUrl),
        );
        expect(run.code, run.stderr).toBe(1);
        expect(harnessLines(run)).toEqual([
          `event-harness: the credentials for client ${CLIENT_ID} were refused with --client-auth basic but work with --client-auth post: judging with basic, as given (a given --client-auth is never switched; give --client-auth post, or leave it out to let the harness choose)`,
        ]);
        expect(run.stdout).toMatch(/FAIL +token\.issued /);
        expect(((await json(join(dir, "results.json"))).target as { clientAuth: string }).clientAuth).toBe(
          "basic",
        );
      },
      { faults: ["token-no-basic-auth"] },
    );
  });

  for (const secret of ["wrong", "token", "events", "PASS"]) {
    it(`a secret '${secret}' mangles no check id nor the harness's words`, async () => {
      await withSandbox(
        async (sandbox) => {
          const dir = join(reports, `word-${secret}`);
          const only = "token.issued,token.form-auth,events.accepted";
          const passed = await runCli(
            ["contract", "--only", only, "--report-dir", dir],
            targetEnv(sandbox.authUrl, sandbox.baseUrl, secret),
          );
          expect(passed.code, passed.stderr).toBe(0);
          for (const line of [/^Token issuance$/m, /^Event creation$/m, /^Verdict: PASSED — 3 PASS /m])
            expect(passed.stdout).toMatch(line);
          for (const id of only.split(",")) expect(passed.stdout).toMatch(new RegExp(`^  PASS +${id} `, "m"));
          const results = await json(join(dir, "results.json"));
          expect((results.checks as Array<{ id: string }>).map((check) => check.id)).toEqual(only.split(","));
          const refused = await runCli(
            ["contract", "--only", only, "--report-dir", join(reports, `word-refused-${secret}`)],
            targetEnv(sandbox.authUrl, sandbox.baseUrl, `${secret}-not`),
          );
          expect(refused.code).toBe(3);
          expect(harnessLines(refused)).toEqual([REFUSED]);
          expect(refused.stdout).toMatch(
            /^Verdict: COULD NOT DECIDE \(could not test the target: see above\) — 3 SKIP /m,
          );
        },
        { secret },
      );
    });
  }
});

describe("run and load: the same preflight, said once", () => {
  it("run with a wrong secret: no part runs, the run is could-not-test (exit 3), run.json says why", async () => {
    await withSandbox(async (sandbox) => {
      const dir = join(reports, "run-wrong-secret");
      const run = await runCli(
        ["run", "--report-dir", dir],
        targetEnv(sandbox.authUrl, sandbox.baseUrl, "not-the-secret"),
      );
      expect(run.code).toBe(3);
      expect(harnessLines(run)).toEqual([REFUSED]);
      expect(run.stdout).toMatch(
        /skipped +Contract suite .*\(not run: the preflight could not test the target\)/,
      );
      expect(run.stdout).toMatch(/^Verdict: COULD NOT DECIDE \(could not test the target: see above\)/m);
      const outcome = await json(join(dir, "run.json"));
      expect(outcome.verdict).toBe("undecided");
      expect(outcome.couldNotTest).toBe(REFUSED.slice("event-harness: ".length));
      expect(await readFile(join(dir, "summary.md"), "utf8")).toContain(
        "could not test the target: the credentials",
      );
    });
  });

  it("run against an unreachable target: one line naming host, port and cause, exit 3", async () => {
    const gone = await startSandbox({ port: 0 });
    await gone.close();
    const port = new URL(gone.authUrl).port;
    const run = await runCli(
      ["run", "--report-dir", join(reports, "run-unreachable")],
      targetEnv(gone.authUrl, gone.baseUrl),
    );
    expect(run.code).toBe(3);
    expect(harnessLines(run)).toEqual([
      `event-harness: cannot reach the token endpoint ${gone.tokenUrl} (127.0.0.1:${port}: connection refused)`,
    ]);
  });

  it("load with an --auth-url ending in /oauth/token: the load does not start, did you mean --token-url (exit 3)", async () => {
    await withSandbox(async (sandbox) => {
      const run = await runCli(
        ["load", "sustained", "--report-dir", join(reports, "load-wrong-url")],
        targetEnv(sandbox.tokenUrl, sandbox.baseUrl),
      );
      expect(run.code).toBe(3);
      expect(harnessLines(run)).toEqual([
        expect.stringMatching(/is not a token endpoint: it answered 404 .*; did you mean --token-url .*\?$/),
      ]);
      expect(run.stderr).not.toContain("k6");
    });
  });
});
