import { readdir, readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "../../support/fixtures.ts";
import { runCli } from "../../support/run-cli.ts";
import { runCliInProcess } from "../../support/run-in-process.ts";

const SECRET = "cli-test-secret-9f8e7d6c5b4a";
const CLIENT = { clientId: "cli-test-client", clientSecret: SECRET };

async function reportText(dir: string): Promise<string> {
  const files = await readdir(dir);
  const texts = await Promise.all(files.map((file) => readFile(join(dir, file), "utf8")));
  return texts.join("\n");
}

/** The preflight's diagnosis lines (stderr lines the harness starts with its name), which must come once. */
function diagnosisLines(run: { stderr: string }): string[] {
  return run.stderr.split("\n").filter((line) => line.startsWith("event-harness: "));
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

describe("event-harness contract", () => {
  // The real process path: bin/event-harness.js through tsx, the streams and the exit code of a child process.
  it("passes against the embedded sandbox, exits 0 and writes the three reports", async ({ tmpDir }) => {
    const dir = join(tmpDir, "embedded");
    const run = await runCli(["contract", "--report-dir", dir]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Verdict: PASSED — \d+ PASS .*, embedded sandbox — not your API\)$/m);
    expect(run.stderr).toMatch(/^Contract fast profile against .*, embedded sandbox — not your API\n/);
    expect(await readFile(join(dir, "summary.md"), "utf8")).toMatch(
      /^## .* \(embedded sandbox — not your API\)\n/,
    );
    expect(run.stdout).toContain("Bearer requirement");
    expect((await readdir(dir)).sort()).toEqual([
      ".event-harness-run",
      "junit.xml",
      "results.json",
      "summary.md",
    ]);
    const results = JSON.parse(await readFile(join(dir, "results.json"), "utf8"));
    expect(results.verdict).toBe("passed");
    for (const check of results.checks) {
      // A property-based check also says what it explored.
      const keys = ["area", "durationMs", "evidence", "id", "level", "message", "rule", "status", "title"];
      expect(Object.keys(check).sort()).toEqual(
        (check.area === "inputs" ? [...keys, "exploration"] : keys).sort(),
      );
      expect(check.evidence[0].curl).toMatch(/^curl -sS -i -X (POST|GET) '/);
    }
    expect(await readFile(join(dir, "junit.xml"), "utf8")).toMatch(
      /<testsuites name="event-api-harness contract \(fast\)" tests="\d+" failures="0" errors="0"/,
    );
  });

  it("exits 1 and names the failed checks when the target breaks the contract", async ({ tmpDir }) => {
    const dir = join(tmpDir, "fault");
    const run = await runCliInProcess([
      "contract",
      "--sandbox-fault",
      "bearer-alg-none",
      "--report-dir",
      dir,
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /FAIL +bearer\.alg-none +MUST +expected an unsigned \(alg: none\) token to be rejected/,
    );
    // The log's last line names the failed check; the line above it says where the evidence is.
    const [reports, verdict] = run.stdout.trimEnd().split("\n").slice(-2);
    expect(verdict).toMatch(/^Verdict: FAILED — 1 FAIL \(bearer\.alg-none\), /);
    expect(reports).toBe(
      `Reports: ${join(dir, "results.json")}, ${join(dir, "junit.xml")}, ${join(dir, "summary.md")}`,
    );
    expect(await readFile(join(dir, "summary.md"), "utf8")).toContain("❌ Contract broken");
  });

  it("keeps a failed SHOULD a warning: exit 0", async ({ tmpDir }) => {
    const run = await runCliInProcess([
      "contract",
      "--sandbox-fault",
      "token-no-cache-headers",
      "--only",
      "token",
      "--report-dir",
      join(tmpDir, "warn"),
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/WARN +token\.no-store +SHOULD +expected Cache-Control: no-store/);
  });

  it.each([
    [["--profile", "slow"], /--profile takes one of fast, full/],
    [["--run-timeout", "soon"], /--run-timeout takes a number from 1 to/],
    [["--only", "bearer.nope"], /--only names no check: bearer\.nope/],
    [["--only", "lifetime"], /--only lifetime selects no check of the fast profile: add --profile full/],
    [["--sandbox-fault", "nope"], /unknown --sandbox-fault 'nope'/],
    [
      ["--auth-url", "http://127.0.0.1:1/auth"],
      /an external target needs --base-url .*, --client-id .*, --client-secret/,
    ],
    [["--timeout", "0"], /--timeout takes a number/],
  ])("exits 2 on a usage error: %s", async (args, message) => {
    const run = await runCliInProcess(["contract", ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toContain("Run `event-harness contract --help` for usage.");
  });

  it("says once that an unreachable target cannot be tested: exit 3, host, port and cause, every check SKIP", async ({
    tmpDir,
    targetEnv,
  }) => {
    const port = await closedPort();
    const dir = join(tmpDir, "unreachable");
    const run = await runCliInProcess(
      ["contract", "--only", "token.issued,bearer.missing", "--report-dir", dir],
      targetEnv({
        authUrl: `http://127.0.0.1:${port}/auth`,
        baseUrl: `http://127.0.0.1:${port}/api`,
        ...CLIENT,
      }),
    );
    expect(run.code).toBe(3);
    expect(diagnosisLines(run)).toEqual([
      `event-harness: cannot reach the token endpoint http://127.0.0.1:${port}/auth/oauth/token (127.0.0.1:${port}: connection refused)`,
    ]);
    expect(`${run.stdout}${run.stderr}`.split("connection refused")).toHaveLength(2);
    expect(run.stdout).toMatch(
      /^Verdict: COULD NOT DECIDE \(could not test the target: see above\) — 2 SKIP/m,
    );
    const results = JSON.parse(await readFile(join(dir, "results.json"), "utf8"));
    expect(results.verdict).toBe("undecided");
    expect(results.couldNotTest).toContain("connection refused");
  });

  it("says once, within the timeout, that a target answering too slowly cannot be tested", async ({
    tmpDir,
    sandbox,
    targetEnv,
  }) => {
    const target = await sandbox({ expiresIn: 5, faults: ["slow"], clients: [CLIENT] });
    const started = Date.now();
    const run = await runCliInProcess(
      ["contract", "--only", "token.issued", "--timeout", "1", "--report-dir", join(tmpDir, "slow")],
      targetEnv(target),
    );
    expect(run.code).toBe(3);
    expect(diagnosisLines(run)).toEqual([
      expect.stringMatching(/cannot reach the token endpoint .*: no answer within 1\.0 s\)$/),
    ]);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("says once that a target resetting connections cannot be tested", async ({
    tmpDir,
    sandbox,
    targetEnv,
  }) => {
    const target = await sandbox({ expiresIn: 5, faults: ["reset"], clients: [CLIENT] });
    const run = await runCliInProcess(
      ["contract", "--only", "token.issued", "--report-dir", join(tmpDir, "reset")],
      targetEnv(target),
    );
    expect(run.code).toBe(3);
    expect(diagnosisLines(run)).toEqual([
      expect.stringMatching(
        /cannot reach the token endpoint .*: (connection reset by the target|socket hang up)\)$/,
      ),
    ]);
  });

  it("says once that a token endpoint answering HTML is no token endpoint, with a short excerpt: exit 3", async ({
    tmpDir,
    sandbox,
    targetEnv,
  }) => {
    const target = await sandbox({ expiresIn: 5, faults: ["non-json"], clients: [CLIENT] });
    const run = await runCliInProcess(
      ["contract", "--only", "token.issued", "--report-dir", join(tmpDir, "html")],
      targetEnv(target),
    );
    expect(run.code).toBe(3);
    expect(diagnosisLines(run)).toEqual([
      `event-harness: ${target.authUrl}/oauth/token is not a token endpoint: it answered 200 text/html "<!doctype html><html><head><title>Sign in</title></head><body><h1>Please sign in…"`,
    ]);
    expect(run.stdout).not.toContain("FAIL");
  });

  // A child process, so whatever any part of the harness writes to the process's own streams is searched too.
  it("never shows the client secret or an access token, in the console or in any report", async ({
    tmpDir,
    sandbox,
    targetEnv,
  }) => {
    const target = await sandbox({ expiresIn: 5, clients: [CLIENT] });
    const dir = join(tmpDir, "secrets");
    const run = await runCli(["contract", "--report-dir", dir], targetEnv(target));
    expect(run.code, run.stderr).toBe(0);
    const everything = [run.stdout, run.stderr, await reportText(dir)].join("\n");
    const basic = Buffer.from(`${CLIENT.clientId}:${SECRET}`).toString("base64");
    for (const leak of [SECRET, encodeURIComponent(SECRET), basic]) expect(everything).not.toContain(leak);
    // Every access token the sandbox issues is a JWS, so any base64url JSON header would be one leaking.
    expect(everything).not.toMatch(/eyJ[A-Za-z0-9_-]{8,}/);
    expect(everything).toContain("<CLIENT_SECRET>");
    expect(everything).toContain("<ACCESS_TOKEN>");
    // A named target is the user's API: no demo mark.
    expect(everything).not.toContain("not your API");
  });
});
