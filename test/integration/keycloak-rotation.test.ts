import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createEventGenerator } from "../../generators/index.ts";
import { describe, expect } from "../support/fixtures.ts";
import {
  keycloakTest as it,
  KEYCLOAK_WAIT_MS,
  type KeycloakHarness,
  type KeycloakRealm,
} from "../support/keycloak/keycloak-fixture.ts";

/**
 * Rotation against a real Keycloak 26, through its admin REST API: a regenerated secret, the secret-rotation client
 * policy's grace period (a preview feature, enabled at start), and a revoked token seen by an API that introspects
 * and by one that checks signatures only. Each verdict is stated before it runs. Realms are this file's own.
 */

const TIMEOUT = KEYCLOAK_WAIT_MS + 180_000;
/** The old secret's grace under the secret-rotation policy: room for a CLI run on a busy machine. */
const GRACE_SECONDS = 60;
/** Tokens outlive the file's runs, so an earlier token is refused only if something revoked it. */
const LIFESPAN = 300;

it.afterAll(({ keycloak }) => {
  for (const output of keycloak.outputs) {
    for (const secret of keycloak.secrets) expect(output).not.toContain(secret);
  }
});

/** The client's internal id, which the admin API's client paths take. */
async function clientUuid(keycloak: KeycloakHarness, realm: KeycloakRealm): Promise<string> {
  const answer = await keycloak.admin("GET", `/realms/${realm.name}/clients?clientId=${realm.clientId}`);
  const [client] = (await answer.json()) as Array<{ id: string }>;
  if (client === undefined) throw new Error(`no client ${realm.clientId} in ${realm.name}`);
  return client.id;
}

/** `POST /admin/realms/R/clients/{id}/client-secret`: Keycloak makes and returns a new secret. */
async function regenerateSecret(keycloak: KeycloakHarness, realm: KeycloakRealm): Promise<string> {
  const answer = await keycloak.admin(
    "POST",
    `/realms/${realm.name}/clients/${await clientUuid(keycloak, realm)}/client-secret`,
  );
  expect(answer.status).toBe(200);
  const { type, value } = (await answer.json()) as { type: string; value: string };
  expect(type).toBe("secret");
  keycloak.secrets.push(value);
  return value;
}

/** `POST …/protocol/openid-connect/revoke` with the client's own credentials (RFC 7009). */
async function revoke(realm: KeycloakRealm, token: string): Promise<void> {
  const answer = await fetch(realm.revokeUrl, {
    method: "POST",
    body: new URLSearchParams({
      client_id: realm.clientId,
      client_secret: realm.clientSecret,
      token,
      token_type_hint: "access_token",
    }),
  });
  expect(answer.status).toBe(200);
}

const events = createEventGenerator({ seed: 47, runId: "keycloak", referencePrefix: "eah-keycloak-" });

/** A valid event posted with a token, as a client of the API would. */
async function postEvent(baseUrl: string, token: string): Promise<number> {
  const answer = await fetch(`${baseUrl}/events`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(events.next()),
  });
  return answer.status;
}

function rotationArgs(
  realm: KeycloakRealm,
  baseUrl: string,
  reportDir: string,
  expectations: string[],
): string[] {
  return [
    "verify-rotation",
    ...expectations,
    ...["--issuer", realm.issuer, "--base-url", baseUrl, "--client-id", realm.clientId],
    ...["--report-dir", reportDir],
  ];
}

describe("Keycloak 26 as the authorization server: rotation", () => {
  it.concurrent(
    "a secret regenerated through the admin API: the old secret is refused, earlier tokens stay valid until exp; verify-rotation PASSES",
    async ({ keycloak, tmpDir }) => {
      const realm = await keycloak.realm({ accessTokenLifespan: LIFESPAN });
      const apis = await keycloak.apis(realm);
      const oldToken = await keycloak.token(realm);
      const newSecret = await regenerateSecret(keycloak, realm);
      const run = await keycloak.harness(
        rotationArgs(realm, apis.signatureOnly, join(tmpDir, "rotation"), [
          ...["--expect-old", "refused", "--expect-old-tokens", "valid"],
        ]),
        newSecret,
        { EVENT_API_OLD_CLIENT_SECRET: realm.clientSecret, EVENT_API_OLD_ACCESS_TOKEN: oldToken },
      );
      expect(run.stdout, run.stderr).toMatch(/^ {2}PASS +rotation\.new-secret /m);
      // Keycloak refuses the old secret with 401 unauthorized_client, not RFC 6749's invalid_client.
      expect(run.stdout).toMatch(
        /^ {2}PASS +rotation\.old-secret +MUST +the old secret is refused: 401 .*unauthorized_client/m,
      );
      expect(run.stdout).toMatch(
        /^ {2}PASS +rotation\.old-tokens +MUST +the earlier token is valid \(202\)/m,
      );
      expect(run.stdout).toMatch(/Verdict: PASSED — 3 PASS/);
      expect(run.code).toBe(0);
    },
    TIMEOUT,
  );

  it.concurrent(
    `the secret-rotation client policy keeps the old secret for its ${GRACE_SECONDS} s grace, then refuses it`,
    async ({ keycloak, tmpDir }) => {
      const realm = await keycloak.realm({
        rotationGraceSeconds: GRACE_SECONDS,
        accessTokenLifespan: LIFESPAN,
      });
      const apis = await keycloak.apis(realm);
      const newSecret = await regenerateSecret(keycloak, realm);
      // The policy's executor recorded when the old secret stops working.
      const client = await keycloak.admin(
        "GET",
        `/realms/${realm.name}/clients/${await clientUuid(keycloak, realm)}`,
      );
      const { attributes } = (await client.json()) as { attributes: Record<string, string> };
      const graceEnds = Number(attributes["client.secret.rotated.expiration.time"]);
      expect(graceEnds - Number(attributes["client.secret.rotated.creation.time"])).toBe(GRACE_SECONDS);
      const old = { EVENT_API_OLD_CLIENT_SECRET: realm.clientSecret };
      const during = await keycloak.harness(
        rotationArgs(realm, apis.signatureOnly, join(tmpDir, "during"), ["--expect-old", "accepted"]),
        newSecret,
        old,
      );
      expect(during.stdout, during.stderr).toMatch(
        /^ {2}PASS +rotation\.old-secret +MUST +the old secret is accepted/m,
      );
      expect(during.code).toBe(0);
      await sleep(Math.max(0, (graceEnds + 2) * 1000 - Date.now()));
      const after = await keycloak.harness(
        rotationArgs(realm, apis.signatureOnly, join(tmpDir, "after"), ["--expect-old", "refused"]),
        newSecret,
        old,
      );
      expect(after.stdout, after.stderr).toMatch(
        /^ {2}PASS +rotation\.old-secret +MUST +the old secret is refused: 401/m,
      );
      expect(after.code).toBe(0);
    },
    TIMEOUT,
  );

  it.concurrent(
    "a revoked token: the introspecting API refuses it, the signature-only API takes it until exp, and verify-rotation names which the API does",
    async ({ keycloak, tmpDir }) => {
      // The harness's client in its tokens' audience: Keycloak answers its introspections only then.
      const realm = await keycloak.realm({ selfAudience: true, accessTokenLifespan: LIFESPAN });
      const apis = await keycloak.apis(realm);
      const token = await keycloak.token(realm);
      await revoke(realm, token);
      // What each API does, seen without the harness.
      expect(await postEvent(apis.introspecting, token)).toBe(401);
      expect(await postEvent(apis.signatureOnly, token)).toBe(202);
      const old = { EVENT_API_OLD_ACCESS_TOKEN: token };
      const expectRevoked = ["--expect-old-tokens", "revoked"];
      const introspecting = await keycloak.harness(
        rotationArgs(realm, apis.introspecting, join(tmpDir, "introspecting"), expectRevoked),
        realm.clientSecret,
        old,
      );
      expect(introspecting.stdout, introspecting.stderr).toMatch(
        /^ {2}PASS +rotation\.old-tokens +MUST +the earlier token is revoked \(401; .*the issuer's introspection endpoint calls it inactive, and a fresh token active\)/m,
      );
      expect(introspecting.code).toBe(0);
      const signatureOnly = await keycloak.harness(
        rotationArgs(realm, apis.signatureOnly, join(tmpDir, "signature-only"), expectRevoked),
        realm.clientSecret,
        old,
      );
      // Neither a pass nor a failure: the API's own choice, named.
      expect(signatureOnly.stdout, signatureOnly.stderr).toMatch(
        /^ {2}WARN +rotation\.old-tokens +MUST +revoked by the server, not by the API: .* but the API still accepts it \(202\): the API checks the token itself, not whether it was revoked, so it works until it expires \(its exp: /m,
      );
      expect(signatureOnly.stdout).toMatch(/Verdict: PASSED/);
      expect(signatureOnly.code).toBe(0);
    },
    TIMEOUT,
  );

  it.concurrent(
    "where Keycloak will not introspect for the harness's client (not in the token's audience), verify-rotation says so and decides from the token alone",
    async ({ keycloak, tmpDir }) => {
      const realm = await keycloak.realm({ accessTokenLifespan: LIFESPAN });
      const apis = await keycloak.apis(realm);
      const token = await keycloak.token(realm);
      await revoke(realm, token);
      const old = { EVENT_API_OLD_ACCESS_TOKEN: token };
      const expectRevoked = ["--expect-old-tokens", "revoked"];
      // The introspecting API refuses it before its exp: revoked, from the token's own exp.
      const introspecting = await keycloak.harness(
        rotationArgs(realm, apis.introspecting, join(tmpDir, "introspecting"), expectRevoked),
        realm.clientSecret,
        old,
      );
      expect(introspecting.stdout, introspecting.stderr).toMatch(
        /^ {2}PASS +rotation\.old-tokens +MUST +the earlier token is revoked \(401; issued \d+ s ago, within expires_in \d+ s\)/m,
      );
      // The signature-only API takes it, and nothing tells the harness the server revoked it: the expectation fails,
      // with the reason the harness could not ask.
      const signatureOnly = await keycloak.harness(
        rotationArgs(realm, apis.signatureOnly, join(tmpDir, "signature-only"), expectRevoked),
        realm.clientSecret,
        old,
      );
      expect(signatureOnly.stdout, signatureOnly.stderr).toMatch(
        /^ {2}FAIL +rotation\.old-tokens +MUST +expected the earlier token to be revoked, but it is valid: .*whether the server revoked it is not known: the issuer's introspection endpoint does not call a fresh, working token active \(it answered active: false\); Keycloak answers so to a client that is not in the token's audience/m,
      );
      expect(signatureOnly.code).toBe(1);
    },
    TIMEOUT,
  );
});
