import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FaultName, RunningSandbox } from "../../../sandbox/index.ts";
import { startSandbox } from "../../../sandbox/index.ts";
import { runCli } from "../../support/run-cli.ts";

const SECRET = "cli-test-secret-9f8e7d6c5b4a";
const CLIENT = { clientId: "cli-test-client", clientSecret: SECRET };

let reports: string;
beforeAll(async () => {
  reports = await mkdtemp(join(tmpdir(), "eah-contract-"));
});
afterAll(async () => {
  await rm(reports, { recursive: true, force: true });
});

async function withSandbox<T>(faults: FaultName[], use: (sandbox: RunningSandbox) => Promise<T>): Promise<T> {
  const sandbox = await startSandbox({ port: 0, expiresIn: 5, faults, clients: [CLIENT] });
  try {
    return await use(sandbox);
  } finally {
    await sandbox.close();
  }
}

function targetEnv(sandbox: { authUrl: string; baseUrl: string }): NodeJS.ProcessEnv {
  return {
    EVENT_API_AUTH_URL: sandbox.authUrl,
    EVENT_API_BASE_URL: sandbox.baseUrl,
    EVENT_API_CLIENT_ID: CLIENT.clientId,
    EVENT_API_CLIENT_SECRET: SECRET,
  };
}

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
  it("passes against the embedded sandbox, exits 0 and writes the three reports", async () => {
    const dir = join(reports, "embedded");
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
      expect(Object.keys(check).sort()).toEqual(
        ["area", "durationMs", "evidence", "id", "level", "message", "rule", "status", "title"].sort(),
      );
      expect(check.evidence[0].curl).toMatch(/^curl -sS -i -X (POST|GET) '/);
    }
    expect(await readFile(join(dir, "junit.xml"), "utf8")).toMatch(
      /<testsuites name="event-api-harness contract \(fast\)" tests="\d+" failures="0" errors="0"/,
    );
  });

  it("exits 1 and names the failed checks when the target breaks the contract", async () => {
    const dir = join(reports, "fault");
    const run = await runCli(["contract", "--sandbox-fault", "bearer-alg-none", "--report-dir", dir]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /FAIL +bearer\.alg-none +MUST +expected an unsigned \(alg: none\) token to be rejected/,
    );
    expect(run.stdout).toMatch(/^Verdict: FAILED — 1 FAIL, /m);
    expect(await readFile(join(dir, "summary.md"), "utf8")).toContain("❌ Contract broken");
  });

  it("keeps a failed SHOULD a warning: exit 0", async () => {
    const run = await runCli([
      "contract",
      "--sandbox-fault",
      "token-no-cache-headers",
      "--only",
      "token",
      "--report-dir",
      join(reports, "warn"),
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
    const run = await runCli(["contract", ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toContain("Run `event-harness contract --help` for usage.");
  });

  it("says once that an unreachable target cannot be tested: exit 3, host, port and cause, every check SKIP", async () => {
    const port = await closedPort();
    const dir = join(reports, "unreachable");
    const run = await runCli(["contract", "--only", "token.issued,bearer.missing", "--report-dir", dir], {
      ...targetEnv({ authUrl: `http://127.0.0.1:${port}/auth`, baseUrl: `http://127.0.0.1:${port}/api` }),
    });
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

  it("says once, within the timeout, that a target answering too slowly cannot be tested", async () => {
    await withSandbox(["slow"], async (sandbox) => {
      const run = await runCli(
        ["contract", "--only", "token.issued", "--timeout", "1", "--report-dir", join(reports, "slow")],
        targetEnv(sandbox),
      );
      expect(run.code).toBe(3);
      expect(diagnosisLines(run)).toEqual([
        expect.stringMatching(/cannot reach the token endpoint .*: no answer within 1\.0 s\)$/),
      ]);
      expect(run.ms).toBeLessThan(20_000);
    });
  });

  it("says once that a target resetting connections cannot be tested", async () => {
    await withSandbox(["reset"], async (sandbox) => {
      const run = await runCli(
        ["contract", "--only", "token.issued", "--report-dir", join(reports, "reset")],
        targetEnv(sandbox),
      );
      expect(run.code).toBe(3);
      expect(diagnosisLines(run)).toEqual([
        expect.stringMatching(
          /cannot reach the token endpoint .*: (connection reset by the target|socket hang up)\)$/,
        ),
      ]);
    });
  });

  it("says once that a token endpoint answering HTML is no token endpoint, with a short excerpt: exit 3", async () => {
    await withSandbox(["non-json"], async (sandbox) => {
      const run = await runCli(
        ["contract", "--only", "token.issued", "--report-dir", join(reports, "html")],
        targetEnv(sandbox),
      );
      expect(run.code).toBe(3);
      expect(diagnosisLines(run)).toEqual([
        `event-harness: ${sandbox.authUrl}/oauth/token is not a token endpoint: it answered 200 text/html "<!doctype html><html><head><title>Sign in</title></head><body><h1>Please sign in…"`,
      ]);
      expect(run.stdout).not.toContain("FAIL");
    });
  });

  it("never shows the client secret or an access token, in the console or in any report", async () => {
    await withSandbox([], async (sandbox) => {
      const dir = join(reports, "secrets");
      const run = await runCli(["contract", "--report-dir", dir], targetEnv(sandbox));
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
});
