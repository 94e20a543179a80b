import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "../support/fixtures.ts";
import { keycloakTest as it, KEYCLOAK_WAIT_MS } from "../support/keycloak/keycloak-fixture.ts";
import { KEYCLOAK_TOKEN_LIFESPAN } from "../support/keycloak/keycloak-server.ts";
import type { LoadSummary } from "../support/load-runs.ts";
import { count } from "../support/load-runs.ts";

/**
 * Real k6 runs against a real Keycloak 26 (a realm of this file's own, access tokens fixed at 10 s from issue) in
 * front of the events API that verifies its JWTs against the JWKS. What each scenario must say is stated before it
 * runs; the three go side by side (about 40 s).
 */

const TIMEOUT = KEYCLOAK_WAIT_MS + 240_000;

async function summaryOf(reportDir: string): Promise<LoadSummary> {
  return JSON.parse(await readFile(join(reportDir, "summary.json"), "utf8")) as LoadSummary;
}

it.afterAll(({ keycloak }) => {
  for (const output of keycloak.outputs) {
    for (const secret of keycloak.secrets) expect(output).not.toContain(secret);
  }
});

describe("Keycloak 26 as the authorization server: load", () => {
  it.concurrent(
    "idle-gap FAILs and names a lifetime fixed from issue",
    async ({ keycloak, tmpDir }) => {
      const realm = await keycloak.realm();
      const apis = await keycloak.apis(realm);
      const reportDir = join(tmpDir, "idle-gap");
      // One cycle: a gap over half the lifespan, a burst past it, a long gap (about 3 lifespans).
      const run = await keycloak.harness(
        [
          "load",
          "idle-gap",
          "--duration",
          "30s",
          "--quiet",
          ...["--issuer", realm.issuer, "--base-url", apis.signatureOnly, "--client-id", realm.clientId],
          ...["--report-dir", reportDir],
        ],
        realm.clientSecret,
      );
      const summary = await summaryOf(reportDir);
      expect(run.stdout, run.stderr).toContain("SLIDING EXPIRY: BROKEN");
      expect(run.stdout).toMatch(/a lifetime fixed from issue, not counted from the last use/);
      // Tokens used within their lifespan were refused at exp, none outlived it, each cycle's token survived its gap.
      expect(count(summary, "token_expiries{kind:unexpected}")).toBeGreaterThan(0);
      expect(count(summary, "token_expiries{kind:extended}")).toBe(0);
      expect(count(summary, "token_expiries{kind:outlived}")).toBe(0);
      // The two sliding-expiry gates failed; a latency goal may fail too on a busy shared machine, nothing else.
      const failed = summary.harness.failedThresholds.map((threshold) => threshold.metric);
      expect(failed.filter((metric) => !metric.startsWith("http_req_duration")).sort()).toEqual([
        "token_expiries{kind:extended}",
        "token_expiries{kind:unexpected}",
      ]);
      expect(run.code).toBe(1);
    },
    TIMEOUT,
  );

  it.concurrent(
    "sustained over more than three lifespans, with the client a fixed lifetime needs (cache-until-expiry), PASSes with 0 expiry violations",
    async ({ keycloak, tmpDir }) => {
      const realm = await keycloak.realm();
      const apis = await keycloak.apis(realm);
      const reportDir = join(tmpDir, "sustained");
      const seconds = 3 * KEYCLOAK_TOKEN_LIFESPAN + 2;
      const run = await keycloak.harness(
        [
          "load",
          "sustained",
          ...["--duration", `${seconds}s`, "--rate", "5", "--client-model", "cache-until-expiry", "--quiet"],
          ...["--issuer", realm.issuer, "--base-url", apis.signatureOnly, "--client-id", realm.clientId],
          ...["--report-dir", reportDir],
        ],
        realm.clientSecret,
      );
      const summary = await summaryOf(reportDir);
      expect(count(summary, "token_expiries{kind:unexpected}")).toBe(0);
      expect(count(summary, "token_expiries{kind:outlived}")).toBe(0);
      // Every VU replaced its token at least three times: the run crossed three lifespans.
      expect(count(summary, "token_requests{reason:lifetime,outcome:issued}")).toBeGreaterThanOrEqual(3);
      expect(count(summary, "events_rejected")).toBe(0);
      // It says what the run could not show: a client that never waits for exp cannot tell fixed from sliding.
      expect(run.stdout, run.stderr).toContain("SLIDING EXPIRY: NOT EXERCISED");
      expect(run.stdout).toMatch(/PASSED: thresholds held/);
      expect(run.code).toBe(0);
    },
    TIMEOUT,
  );

  it.concurrent(
    "token-storm reports the token endpoint's throughput, with no false violation",
    async ({ keycloak, tmpDir }) => {
      const realm = await keycloak.realm();
      const apis = await keycloak.apis(realm);
      const reportDir = join(tmpDir, "token-storm");
      const run = await keycloak.harness(
        [
          "load",
          "token-storm",
          ...["--duration", "8s", "--vus", "5", "--quiet"],
          ...["--token-url", realm.tokenUrl, "--base-url", apis.signatureOnly, "--client-id", realm.clientId],
          ...["--report-dir", reportDir],
        ],
        realm.clientSecret,
      );
      const summary = await summaryOf(reportDir);
      // A token per iteration: every token request is one Keycloak answered.
      const issued = count(summary, "token_requests{reason:per-iteration}");
      expect(issued).toBeGreaterThan(20);
      expect(count(summary, "token_requests")).toBe(issued);
      expect(count(summary, "token_requests{outcome:failed}")).toBe(0);
      expect(count(summary, "token_expiries{kind:unexpected}")).toBe(0);
      expect(count(summary, "token_expiries{kind:outlived}")).toBe(0);
      expect(run.stdout, run.stderr).toMatch(
        new RegExp(`tokens +requests ${issued}, refreshes 0, failed 0, latency avg=`),
      );
      // The token endpoint's latency is Keycloak's on a shared 2-core machine, not a contract: only a latency goal
      // may fail here, never a violation.
      const failed = summary.harness.failedThresholds.map((threshold) => threshold.metric);
      expect(failed.filter((metric) => !metric.startsWith("http_req_duration"))).toEqual([]);
      expect(run.code).toBe(failed.length === 0 ? 0 : 1);
    },
    TIMEOUT,
  );
});
