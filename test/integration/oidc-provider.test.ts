import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OidcProviderTarget, startOidcProviderTarget } from "../support/oidc-provider-target.ts";
import { runCli } from "../support/run-cli.ts";

/**
 * The harness against a real third-party authorization server (oidc-provider 9, fixed lifetime from issue): only the
 * true deviations may show. About 2 min in all, most of it the sliding-expiry wait and idle-gap's cycles.
 */
const TTL = 10;
const CLIENT_ID = "release-check";
const SECRET = "oidc-provider-secret-1f5e9c";
const NEW_SECRET = "oidc-provider-secret-rotated-77a2";

let target: OidcProviderTarget;
let workDir: string;
const outputs: string[] = [];

function targetArgs(): string[] {
  return [
    "--token-url",
    target.tokenUrl,
    "--base-url",
    target.baseUrl,
    "--client-id",
    CLIENT_ID,
    "--scope",
    "profile email",
    "--resource",
    target.baseUrl,
  ];
}

async function harness(args: readonly string[], secret = SECRET, env: NodeJS.ProcessEnv = {}) {
  const run = await runCli(
    args,
    {
      EVENT_API_CLIENT_SECRET: secret,
      ...(process.env.K6_BIN ? { K6_BIN: process.env.K6_BIN } : {}),
      ...env,
    },
    150_000,
  );
  outputs.push(run.stdout, run.stderr);
  return run;
}

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), "eh-oidc-"));
  target = await startOidcProviderTarget({
    clientId: CLIENT_ID,
    clientSecret: SECRET,
    ttl: TTL,
    requireResource: true,
  });
});

afterAll(async () => {
  await target?.close();
  await rm(workDir, { recursive: true, force: true });
  // No secret in any output, whatever the run gave.
  for (const output of outputs) {
    expect(output).not.toContain(SECRET);
    expect(output).not.toContain(NEW_SECRET);
  }
});

describe("oidc-provider as the target", () => {
  it("the full contract profile fails only sliding expiry; the spec's example fields and Pragma are warnings", async () => {
    const reportDir = join(workDir, "contract");
    const run = await harness(["contract", "--profile", "full", ...targetArgs(), "--report-dir", reportDir]);
    const results = JSON.parse(await readFile(join(reportDir, "results.json"), "utf8")) as {
      checks: Array<{ id: string; status: string; message: string }>;
    };
    const notPassed = Object.fromEntries(
      results.checks.filter((check) => check.status !== "PASS").map((check) => [check.id, check.status]),
    );
    expect(notPassed).toEqual({
      "token.example-fields": "WARN",
      "token.no-store": "WARN",
      "events.stored": "SKIP",
      "lifetime.sliding": "FAIL",
    });
    const message = (id: string) => results.checks.find((check) => check.id === id)?.message ?? "";
    expect(message("token.example-fields")).toContain("refresh_expires_in");
    expect(message("token.no-store")).toContain("Pragma: no-cache (absent)");
    expect(message("events.stored")).toContain("no such route");
    // Its lifetime is fixed from issue (ttl.ClientCredentials): the check names that pattern.
    expect(message("lifetime.sliding")).toMatch(/^a lifetime fixed from issue: rejected /);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/Verdict: FAILED — 1 FAIL, 2 WARN, 1 SKIP, 29 PASS/);
  }, 150_000);

  it("the ledger of accepted deviations turns the fixed lifetime green, with the deviation visible (WAIVED)", async () => {
    const ledger = join(workDir, "accepted.json");
    const entry = {
      id: "lifetime.sliding",
      reason: "fixed lifetime",
      ticket: "API-1",
      expires: "2999-12-31",
    };
    await writeFile(ledger, JSON.stringify({ accepted: [entry] }));
    const reportDir = join(workDir, "accepted");
    const args = [
      "--profile",
      "full",
      "--only",
      "lifetime.sliding",
      "--accepted",
      ledger,
      "--report-dir",
      reportDir,
    ];
    const run = await harness(["contract", ...args, ...targetArgs()]);
    expect(run.stdout).toMatch(/^ {2}WAIVED +lifetime\.sliding +MUST /m);
    expect(run.stdout).toMatch(/Verdict: PASSED — 1 WAIVED \(/);
    expect(run.code).toBe(0);
  }, 150_000);

  it("--issuer finds the token endpoint and client authentication in oidc-provider's discovery metadata", async () => {
    const args = ["--issuer", target.issuer, "--base-url", target.baseUrl, "--client-id", CLIENT_ID];
    const run = await harness([
      "contract",
      ...args,
      "--scope",
      "profile email",
      "--resource",
      target.baseUrl,
      "--only",
      "token.issued,token.signed,events.accepted",
      "--report-dir",
      join(workDir, "issuer"),
    ]);
    expect(run.stderr).toContain(`--issuer: token endpoint ${target.tokenUrl}, client authentication`);
    expect(run.stdout).toMatch(/Verdict: PASSED — 3 PASS/);
    expect(run.code).toBe(0);
  }, 150_000);

  it("load sustained passes: no token outlives its fixed lifetime in a short run", async () => {
    const run = await harness([
      "load",
      "sustained",
      "--duration",
      "4s",
      "--rate",
      "5",
      ...targetArgs(),
      "--report-dir",
      join(workDir, "sustained"),
    ]);
    expect(run.stderr + run.stdout).not.toContain("FAILED");
    expect(run.code).toBe(0);
  }, 150_000);

  it("load idle-gap reports the expiry violations of a fixed lifetime", async () => {
    const run = await harness([
      "load",
      "idle-gap",
      "--vus",
      "1",
      ...targetArgs(),
      "--report-dir",
      join(workDir, "idle-gap"),
    ]);
    expect(run.stdout).toContain("SLIDING EXPIRY: BROKEN");
    expect(run.stdout).toMatch(/✗ token_expiries\{kind:unexpected\} count==0 {2}\(count=[1-9]/);
    expect(run.code).toBe(1);
  }, 150_000);

  it("verify-rotation: after a restart with a new secret the old one is refused and earlier tokens still work", async () => {
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: CLIENT_ID,
      client_secret: SECRET,
      resource: target.baseUrl,
    });
    const answer = await fetch(target.tokenUrl, { method: "POST", body: form });
    const oldToken = ((await answer.json()) as { access_token: string }).access_token;
    await target.restartWithSecret(NEW_SECRET);
    const run = await harness(
      [
        "verify-rotation",
        "--expect-old",
        "refused",
        "--expect-old-tokens",
        "valid",
        ...targetArgs(),
        "--report-dir",
        join(workDir, "rotation"),
      ],
      NEW_SECRET,
      { EVENT_API_OLD_CLIENT_SECRET: SECRET, EVENT_API_OLD_ACCESS_TOKEN: oldToken },
    );
    expect(run.stdout + run.stderr).not.toContain(oldToken);
    expect(run.stdout).toMatch(/Verdict: PASSED/);
    expect(run.code).toBe(0);
  }, 60_000);
});
