import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "../../support/fixtures.ts";
import { startHostileServer } from "../../support/hostile-server.ts";
import { runCliInProcess } from "../../support/run-in-process.ts";

const CLIENT_ID = "shop-1";
const SECRET = "preflight-test-secret-7a1c";
const REFUSED = `event-harness: the credentials for client ${CLIENT_ID} were refused (401 with --client-auth post, 401 with basic): check the client id and secret, or whether the secret was rotated`;

/** The sandbox's one client, with the test's secret unless another is given. */
function shop(secret = SECRET) {
  return [{ clientId: CLIENT_ID, clientSecret: secret }];
}

/** The lines the harness says in its own name: the diagnosis must be the only one, said once. */
function harnessLines(run: { stderr: string }): string[] {
  return run.stderr.split("\n").filter((line) => line.startsWith("event-harness: "));
}

async function json(file: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
}

describe("contract: diagnose before judging", () => {
  it("a wrong secret: one sentence on the refused credentials, could-not-test (exit 3), every check SKIP", async ({
    tmpDir,
    sandbox,
    targetEnv,
  }) => {
    const target = await sandbox({ clients: shop() });
    const dir = join(tmpDir, "wrong-secret");
    const run = await runCliInProcess(["contract", "--report-dir", dir], targetEnv(target, "not-the-secret"));
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

  it("an --auth-url that already ends in /oauth/token: not a token endpoint, did you mean --token-url (exit 3)", async ({
    tmpDir,
    sandbox,
    targetEnv,
  }) => {
    const target = await sandbox({ clients: shop() });
    const run = await runCliInProcess(
      ["contract", "--report-dir", join(tmpDir, "wrong-url")],
      targetEnv({ ...target.clients[0], authUrl: target.tokenUrl, baseUrl: target.baseUrl }),
    );
    expect(run.code).toBe(3);
    expect(harnessLines(run)).toEqual([
      `event-harness: ${target.tokenUrl}/oauth/token is not a token endpoint: it answered 404 application/json "{"Message":"No resource at this path"}"; did you mean --token-url ${target.tokenUrl}?`,
    ]);
    expect(run.stdout).not.toContain("FAIL");
  });

  it("an --auth-url that is a realm's …/token endpoint gets the same suggestion", async ({
    tmpDir,
    sandbox,
    targetEnv,
  }) => {
    const target = await sandbox({ clients: shop(), tokenPath: "/realms/r/protocol/openid-connect/token" });
    const run = await runCliInProcess(
      ["contract", "--report-dir", join(tmpDir, "wrong-url-realm")],
      targetEnv({ ...target.clients[0], authUrl: target.tokenUrl, baseUrl: target.baseUrl }),
    );
    expect(run.code).toBe(3);
    expect(harnessLines(run)).toEqual([
      expect.stringMatching(
        new RegExp(
          `is not a token endpoint: it answered 404 .*; did you mean --token-url ${target.tokenUrl}\\?$`,
        ),
      ),
    ]);
  });

  it("a wrong --token-url on a server that publishes its metadata gets the discovered token endpoint suggested", async ({
    tmpDir,
    sandbox,
    targetEnv,
  }) => {
    const target = await sandbox({ clients: shop() });
    const env = { ...targetEnv(target), EVENT_API_AUTH_URL: "" };
    const run = await runCliInProcess(
      ["contract", "--token-url", `${target.authUrl}/token`, "--report-dir", join(tmpDir, "wrong-token-url")],
      env,
    );
    expect(run.code).toBe(3);
    expect(harnessLines(run)).toEqual([
      expect.stringMatching(
        new RegExp(
          `/auth/token is not a token endpoint: it answered 404 .*; did you mean --token-url ${target.tokenUrl}\\?$`,
        ),
      ),
    ]);
  });

  it("a server answering an HTML page: not a token endpoint, a short inert excerpt, exit 3", async ({
    tmpDir,
    targetEnv,
  }) => {
    const server = await startHostileServer("html-page");
    try {
      const dir = join(tmpDir, "html-page");
      const run = await runCliInProcess(
        ["contract", "--report-dir", dir],
        targetEnv({ authUrl: `${server.url}/auth`, baseUrl: `${server.url}/api`, ...shop()[0] }),
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

  it("credentials refused with the defaulted post but not with basic: goes on with basic, token.form-auth names it", async ({
    tmpDir,
    sandbox,
    targetEnv,
  }) => {
    const target = await sandbox({ clients: shop(), faults: ["token-basic-only"] });
    const dir = join(tmpDir, "switch-post");
    const run = await runCliInProcess(
      ["contract", "--only", "token.issued,token.form-auth,events.accepted", "--report-dir", dir],
      targetEnv(target),
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
  });

  it("credentials refused with a given --client-auth basic but not with post: judged as given, token.issued FAILs", async ({
    tmpDir,
    sandbox,
    targetEnv,
  }) => {
    const target = await sandbox({ clients: shop(), faults: ["token-no-basic-auth"] });
    const dir = join(tmpDir, "binding-basic");
    const run = await runCliInProcess(
      [
        "contract",
        "--only",
        "token.issued,token.basic-auth,events.accepted",
        "--client-auth",
        "basic",
        "--report-dir",
        dir,
      ],
      targetEnv(target),
    );
    expect(run.code, run.stderr).toBe(1);
    expect(harnessLines(run)).toEqual([
      `event-harness: the credentials for client ${CLIENT_ID} were refused with --client-auth basic but work with --client-auth post: judging with basic, as given (a given --client-auth is never switched; give --client-auth post, or leave it out to let the harness choose)`,
    ]);
    expect(run.stdout).toMatch(/FAIL +token\.issued /);
    expect(((await json(join(dir, "results.json"))).target as { clientAuth: string }).clientAuth).toBe(
      "basic",
    );
  });

  for (const secret of ["wrong", "token", "events", "PASS"]) {
    it(`a secret '${secret}' mangles no check id nor the harness's words`, async ({
      tmpDir,
      sandbox,
      targetEnv,
    }) => {
      const target = await sandbox({ clients: shop(secret) });
      const dir = join(tmpDir, `word-${secret}`);
      const only = "token.issued,token.form-auth,events.accepted";
      const passed = await runCliInProcess(
        ["contract", "--only", only, "--report-dir", dir],
        targetEnv(target),
      );
      expect(passed.code, passed.stderr).toBe(0);
      for (const line of [/^Token issuance$/m, /^Event creation$/m, /^Verdict: PASSED — 3 PASS /m])
        expect(passed.stdout).toMatch(line);
      for (const id of only.split(",")) expect(passed.stdout).toMatch(new RegExp(`^  PASS +${id} `, "m"));
      const results = await json(join(dir, "results.json"));
      expect((results.checks as Array<{ id: string }>).map((check) => check.id)).toEqual(only.split(","));
      const refused = await runCliInProcess(
        ["contract", "--only", only, "--report-dir", join(tmpDir, `word-refused-${secret}`)],
        targetEnv(target, `${secret}-not`),
      );
      expect(refused.code).toBe(3);
      expect(harnessLines(refused)).toEqual([REFUSED]);
      expect(refused.stdout).toMatch(
        /^Verdict: COULD NOT DECIDE \(could not test the target: see above\) — 3 SKIP /m,
      );
    });
  }
});

describe("run and load: the same preflight, said once", () => {
  it("run with a wrong secret: no part runs, the run is could-not-test (exit 3), run.json says why", async ({
    tmpDir,
    sandbox,
    targetEnv,
  }) => {
    const target = await sandbox({ clients: shop() });
    const dir = join(tmpDir, "run-wrong-secret");
    const run = await runCliInProcess(["run", "--report-dir", dir], targetEnv(target, "not-the-secret"));
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

  it("run against an unreachable target: one line naming host, port and cause, exit 3", async ({
    tmpDir,
    sandbox,
    targetEnv,
  }) => {
    const gone = await sandbox({ clients: shop() });
    await gone.close();
    const port = new URL(gone.authUrl).port;
    const run = await runCliInProcess(
      ["run", "--report-dir", join(tmpDir, "run-unreachable")],
      targetEnv(gone),
    );
    expect(run.code).toBe(3);
    expect(harnessLines(run)).toEqual([
      `event-harness: cannot reach the token endpoint ${gone.tokenUrl} (127.0.0.1:${port}: connection refused)`,
    ]);
  });

  it("load with an --auth-url ending in /oauth/token: the load does not start, did you mean --token-url (exit 3)", async ({
    tmpDir,
    sandbox,
    targetEnv,
  }) => {
    const target = await sandbox({ clients: shop() });
    const run = await runCliInProcess(
      ["load", "sustained", "--report-dir", join(tmpDir, "load-wrong-url")],
      targetEnv({ ...target.clients[0], authUrl: target.tokenUrl, baseUrl: target.baseUrl }),
    );
    expect(run.code).toBe(3);
    expect(harnessLines(run)).toEqual([
      expect.stringMatching(/is not a token endpoint: it answered 404 .*; did you mean --token-url .*\?$/),
    ]);
    expect(run.stderr).not.toContain("k6");
  });
});
