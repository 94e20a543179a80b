import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { decodeJwt } from "jose";
import { describe, expect } from "../support/fixtures.ts";
import { keycloakTest as it, KEYCLOAK_WAIT_MS } from "../support/keycloak/keycloak-fixture.ts";
import { KEYCLOAK_TOKEN_LIFESPAN } from "../support/keycloak/keycloak-server.ts";

/**
 * The full contract profile against a real Keycloak 26, in front of the events API that verifies its JWTs against
 * the realm's JWKS, with --issuer and with --token-url, each with Basic and with form credentials; one of the four
 * carries the ledger entry the docs recommend. What each run must say is stated below, before it runs: only the true
 * deviations show. The four go side by side (about a minute).
 */

/** Access tokens live 30 s from issue: the lifetime probes keep 3 s of slack for a busy machine. */
const LIFESPAN = 30;

/** Every check that does not PASS against Keycloak, and its status: anything else passing. */
const NOT_PASSED = {
  // Keycloak reads a form only under a lower-case Content-Type (RFC 9110 makes media types case-insensitive).
  "inputs.token-form": "WARN",
  // Lifetimes are fixed from issue: a token in use still dies at exp.
  "lifetime.sliding": "FAIL",
};

/**
 * Keycloak answers expires_in as exp less the moment it answers, in whole seconds: the lifespan, or less when the
 * answer took a while (a busy machine).
 */
function expiresInOf(message: string): number {
  return Number(/\(expires_in (\d+) s\)/.exec(message)?.[1]);
}

/** The first run waits for Keycloak's start (shared by the whole run), the rest for its own. */
const TIMEOUT = KEYCLOAK_WAIT_MS + 300_000;

interface Results {
  checks: Array<{ id: string; status: string; message: string }>;
}

it.afterAll(({ keycloak }) => {
  // No secret or token in any output, whatever the run gave.
  for (const output of keycloak.outputs) {
    for (const secret of keycloak.secrets) expect(output).not.toContain(secret);
  }
});

/**
 * The Keycloak recipe of docs/reference/ledger.md as a team writes it: both entries bound to the config environment
 * and to the API's base URL, with an expiry inside the year a ledger allows, in a config file that names the ledger.
 */
async function recommendedConfig(
  dir: string,
  realm: { issuer: string; clientId: string },
  baseUrl: string,
  auth: string,
): Promise<string[]> {
  const expires = new Date(Date.now() + 300 * 86_400_000).toISOString().slice(0, 10);
  const bound = { ticket: "API-1", expires, environment: "keycloak", target: baseUrl };
  await writeFile(
    join(dir, "accepted.json"),
    JSON.stringify({
      accepted: [
        { id: "lifetime.sliding", reason: "Keycloak counts the token lifetime from issue", ...bound },
        { id: "load.sliding-expiry", reason: "the same fixed lifetime, seen under load", ...bound },
      ],
    }),
  );
  const config = join(dir, "harness.json");
  await writeFile(
    config,
    JSON.stringify({
      environments: {
        keycloak: {
          issuer: realm.issuer,
          baseUrl,
          clientId: realm.clientId,
          clientAuth: auth,
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a config file writes its secret as a ${VARIABLE} reference
          clientSecret: "${KEYCLOAK_CLIENT_SECRET}",
          accepted: "accepted.json",
        },
      },
    }),
  );
  return ["--config", config, "-e", "keycloak"];
}

describe("Keycloak 26 as the authorization server: the contract", () => {
  for (const [discovery, auth, ledger] of [
    ["--issuer", "basic", false],
    ["--issuer", "post", true],
    ["--token-url", "basic", false],
    ["--token-url", "post", false],
  ] as const) {
    it.concurrent(
      ledger
        ? `full profile, ${discovery}, --client-auth ${auth}, with the docs' ledger recipe bound to its environment and target: PASSED, sliding expiry WAIVED`
        : `full profile, ${discovery}, --client-auth ${auth}: issuance, the bearer requirement and event creation PASS; sliding expiry FAILs as fixed from issue`,
      async ({ keycloak, tmpDir }) => {
        const realm = await keycloak.realm({ accessTokenLifespan: LIFESPAN });
        const apis = await keycloak.apis(realm);
        const reportDir = join(tmpDir, "contract");
        const run = await keycloak.harness(
          [
            "contract",
            "--profile",
            "full",
            ...(ledger
              ? await recommendedConfig(tmpDir, realm, apis.signatureOnly, auth)
              : [
                  ...(discovery === "--issuer"
                    ? ["--issuer", realm.issuer]
                    : ["--token-url", realm.tokenUrl]),
                  ...["--base-url", apis.signatureOnly, "--client-id", realm.clientId, "--client-auth", auth],
                ]),
            // The property stage's inputs are seeded: the same inputs every run.
            ...["--seed", "4122532354", "--report-dir", reportDir],
          ],
          realm.clientSecret,
          ledger ? { KEYCLOAK_CLIENT_SECRET: realm.clientSecret } : {},
        );
        const results = JSON.parse(await readFile(join(reportDir, "results.json"), "utf8")) as Results;
        const notPassed = Object.fromEntries(
          results.checks.filter((check) => check.status !== "PASS").map((check) => [check.id, check.status]),
        );
        expect(notPassed, run.stdout).toEqual(
          ledger ? { ...NOT_PASSED, "lifetime.sliding": "WAIVED" } : NOT_PASSED,
        );
        const message = (id: string) => results.checks.find((check) => check.id === id)?.message ?? "";
        // The pattern is named, with the lifespan as expires_in gave it.
        expect(message("lifetime.sliding")).toMatch(
          /^a lifetime fixed from issue: rejected .* \(expires_in \d+ s\)/,
        );
        expect(expiresInOf(message("lifetime.sliding"))).toBeLessThanOrEqual(LIFESPAN);
        expect(expiresInOf(message("lifetime.sliding"))).toBeGreaterThan(LIFESPAN / 2);
        // A wrong secret is 401 unauthorized_client, an unknown client 401 invalid_client: both read as refused.
        expect(message("token.wrong-secret-refused")).toMatch(
          /^refused without a token .*401 .*"unauthorized_client"/,
        );
        expect(message("token.unknown-client-refused")).toMatch(
          /^refused without a token .*401 .*"invalid_client"/,
        );
        // refresh_expires_in: 0, not-before-policy and the default scopes are what the spec's example shows.
        expect(message("token.example-fields")).toBe(
          "refresh_expires_in and not-before-policy present and typed",
        );
        // Keycloak lists the default scopes in no fixed order.
        expect(message("token.scope")).toMatch(/^scope "(email profile|profile email)"$/);
        expect(message("token.signed")).toBe("JWS signed with RS256, with a kid");
        expect(message("inputs.token-form")).toContain('"Missing form parameter: grant_type"');
        if (discovery === "--issuer") {
          expect(run.stderr).toContain(
            `--issuer: token endpoint ${realm.tokenUrl}, client authentication client_secret_${auth}`,
          );
        }
        if (ledger) {
          expect(run.stdout).toMatch(/^ {2}WAIVED +lifetime\.sliding +MUST /m);
          expect(run.stdout).toMatch(/Verdict: PASSED — 1 WAIVED, 1 WARN, 45 PASS/);
          expect(run.code).toBe(0);
        } else {
          expect(run.stdout).toMatch(/Verdict: FAILED — 1 FAIL \(lifetime\.sliding\), 1 WARN, 45 PASS/);
          expect(run.code).toBe(1);
        }
      },
      TIMEOUT,
    );
  }

  it.concurrent(
    "Keycloak ignores the audience field the harness sends, reads no form under a mixed-case Content-Type, and fixes exp at issue",
    async ({ keycloak }) => {
      const realm = keycloak.imported;
      const ask = (contentType: string, extra: Record<string, string> = {}) =>
        fetch(realm.tokenUrl, {
          method: "POST",
          headers: { "content-type": contentType },
          body: new URLSearchParams({
            grant_type: "client_credentials",
            client_id: realm.clientId,
            client_secret: realm.clientSecret,
            ...extra,
          }).toString(),
        });
      const answer = await ask("application/x-www-form-urlencoded", {
        audience: "https://elsewhere.example",
      });
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as Record<string, unknown>;
      keycloak.secrets.push(body.access_token as string);
      // The audience comes from the realm's audience mapper, never from the request.
      const claims = decodeJwt(body.access_token as string);
      expect(claims.aud).toEqual(expect.arrayContaining([realm.apiClientId]));
      expect(claims.aud).not.toContain("https://elsewhere.example");
      expect(claims.exp).toBe((claims.iat as number) + KEYCLOAK_TOKEN_LIFESPAN);
      expect(body.expires_in).toBeLessThanOrEqual(KEYCLOAK_TOKEN_LIFESPAN);
      expect(body.expires_in).toBeGreaterThan(0);
      expect(body).toMatchObject({
        refresh_expires_in: 0,
        token_type: "Bearer",
        "not-before-policy": 0,
      });
      expect(body).not.toHaveProperty("refresh_token");
      // What inputs.token-form WARNs about, seen without the harness.
      const mixedCase = await ask("Application/X-WWW-Form-URLEncoded");
      expect(mixedCase.status).toBe(400);
      expect(await mixedCase.json()).toMatchObject({ error: "invalid_request" });
    },
    TIMEOUT,
  );
});
