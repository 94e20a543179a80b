import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "../support/fixtures.ts";
import { oidcTest as it, OIDC_CLIENT_ID, OIDC_NEW_SECRET, OIDC_SECRET } from "../support/oidc-harness.ts";

/**
 * The harness against a real third-party authorization server (oidc-provider 9, fixed lifetime from issue): only the
 * true deviations may show. About 40 s, most of it the sliding-expiry wait; idle-gap's cycles (about a minute) are in
 * oidc-provider-idle-gap.test.ts, so the two can run side by side.
 */

it.afterAll(({ oidc }) => {
  // No secret in any output, whatever the run gave.
  for (const output of oidc.outputs) {
    expect(output).not.toContain(OIDC_SECRET);
    expect(output).not.toContain(OIDC_NEW_SECRET);
  }
});

describe("oidc-provider as the target", () => {
  it("the full contract profile fails only sliding expiry; the spec's example fields and Pragma are warnings", async ({
    oidc,
    tmpDir,
  }) => {
    const reportDir = join(tmpDir, "contract");
    const run = await oidc.harness([
      "contract",
      "--profile",
      "full",
      ...oidc.targetArgs(),
      "--report-dir",
      reportDir,
    ]);
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
      "inputs.token-form": "WARN",
      "lifetime.sliding": "FAIL",
    });
    const message = (id: string) => results.checks.find((check) => check.id === id)?.message ?? "";
    expect(message("token.example-fields")).toContain("refresh_expires_in");
    expect(message("token.no-store")).toContain("Pragma: no-cache (absent)");
    expect(message("events.stored")).toContain("no such route");
    // It answers a token request that repeats a parameter (RFC 6749 §3.2 forbids it) with a token.
    expect(message("inputs.token-form")).toMatch(/got a token: .* \(parameters must not repeat\)/);
    // Its lifetime is fixed from issue (ttl.ClientCredentials): the check names that pattern.
    expect(message("lifetime.sliding")).toMatch(/^a lifetime fixed from issue: rejected /);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/Verdict: FAILED — 1 FAIL \(lifetime\.sliding\), 3 WARN, 1 SKIP, 42 PASS/);
  }, 150_000);

  it("the ledger of accepted deviations turns the fixed lifetime green, with the deviation visible (WAIVED)", async ({
    oidc,
    tmpDir,
  }) => {
    const ledger = join(tmpDir, "accepted.json");
    const entry = {
      id: "lifetime.sliding",
      reason: "fixed lifetime",
      ticket: "API-1",
      // Within a year: a ledger refuses a later date.
      expires: new Date(Date.now() + 300 * 86_400_000).toISOString().slice(0, 10),
    };
    await writeFile(ledger, JSON.stringify({ accepted: [entry] }));
    const reportDir = join(tmpDir, "accepted");
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
    const run = await oidc.harness(["contract", ...args, ...oidc.targetArgs()]);
    expect(run.stdout).toMatch(/^ {2}WAIVED +lifetime\.sliding +MUST /m);
    expect(run.stdout).toMatch(/Verdict: PASSED — 1 WAIVED \(/);
    expect(run.code).toBe(0);
  }, 150_000);

  it("--issuer finds the token endpoint and client authentication in oidc-provider's discovery metadata", async ({
    oidc,
    tmpDir,
  }) => {
    const args = [
      "--issuer",
      oidc.target.issuer,
      "--base-url",
      oidc.target.baseUrl,
      "--client-id",
      OIDC_CLIENT_ID,
    ];
    const run = await oidc.harness([
      "contract",
      ...args,
      "--scope",
      "profile email",
      "--resource",
      oidc.target.baseUrl,
      "--only",
      "token.issued,token.signed,events.accepted",
      "--report-dir",
      join(tmpDir, "issuer"),
    ]);
    expect(run.stderr).toContain(`--issuer: token endpoint ${oidc.target.tokenUrl}, client authentication`);
    expect(run.stdout).toMatch(/Verdict: PASSED — 3 PASS/);
    expect(run.code).toBe(0);
  }, 150_000);

  it("load sustained passes: no token outlives its fixed lifetime in a short run", async ({
    oidc,
    tmpDir,
  }) => {
    const run = await oidc.harness([
      "load",
      "sustained",
      "--duration",
      "4s",
      "--rate",
      "5",
      ...oidc.targetArgs(),
      "--report-dir",
      join(tmpDir, "sustained"),
    ]);
    expect(run.stderr + run.stdout).not.toContain("FAILED");
    expect(run.code).toBe(0);
  }, 150_000);

  it("verify-rotation: after a restart with a new secret the old one is refused and earlier tokens still work", async ({
    oidc,
    tmpDir,
  }) => {
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: OIDC_CLIENT_ID,
      client_secret: OIDC_SECRET,
      resource: oidc.target.baseUrl,
    });
    const answer = await fetch(oidc.target.tokenUrl, { method: "POST", body: form });
    const oldToken = ((await answer.json()) as { access_token: string }).access_token;
    await oidc.target.restartWithSecret(OIDC_NEW_SECRET);
    const run = await oidc.harness(
      [
        "verify-rotation",
        "--expect-old",
        "refused",
        "--expect-old-tokens",
        "valid",
        ...oidc.targetArgs(),
        "--report-dir",
        join(tmpDir, "rotation"),
      ],
      OIDC_NEW_SECRET,
      { EVENT_API_OLD_CLIENT_SECRET: OIDC_SECRET, EVENT_API_OLD_ACCESS_TOKEN: oldToken },
    );
    expect(run.stdout + run.stderr).not.toContain(oldToken);
    expect(run.stdout).toMatch(/Verdict: PASSED/);
    expect(run.code).toBe(0);
  }, 60_000);
});
