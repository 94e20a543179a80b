import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { request } from "node:http";
import { fileURLToPath } from "node:url";
import { inject } from "vitest";
import { test } from "../fixtures.ts";
import { type CliRun, runCli } from "../run-cli.ts";
import { type KeycloakEventsApis, startKeycloakEventsApis } from "./keycloak-events-apis.ts";
import {
  KEYCLOAK_API_CLIENT_ID,
  KEYCLOAK_CLIENT_ID,
  KEYCLOAK_REALM,
  type KeycloakInfo,
} from "./keycloak-server.ts";

const REALM_FIXTURE = fileURLToPath(new URL("./harness-realm.json", import.meta.url));
/** How long a file waits for the run's Keycloak: a cold start on a busy machine, and then some. */
export const KEYCLOAK_WAIT_MS = 420_000;

/** A realm of the run's Keycloak with the harness's client and the events API's client. */
export interface KeycloakRealm {
  readonly name: string;
  readonly issuer: string;
  readonly tokenUrl: string;
  readonly revokeUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly apiClientId: string;
  readonly apiClientSecret: string;
}

export interface RealmOptions {
  /** The access tokens' lifespan in seconds, instead of the fixture's 10. */
  readonly accessTokenLifespan?: number;
  /**
   * The secret-rotation client policy (a preview feature) for confidential clients: after a regeneration the old
   * secret is still accepted for this many seconds.
   */
  readonly rotationGraceSeconds?: number;
  /**
   * The harness's client in its own tokens' audience too: Keycloak (since 26.6) answers an introspection only for a
   * client the token is meant for, so verify-rotation can introspect the tokens only then.
   */
  readonly selfAudience?: boolean;
}

export interface KeycloakHarness {
  readonly info: KeycloakInfo;
  /** The realm Keycloak imported as it started (shared by every file: never rotate its secrets). */
  readonly imported: KeycloakRealm;
  /** A realm of the file's own, made from the same fixture through the admin REST API, deleted after the file. */
  realm(options?: RealmOptions): Promise<KeycloakRealm>;
  /** A call to Keycloak's admin REST API (`/admin/realms/…`) with a fresh admin token. */
  admin(method: string, path: string, body?: unknown): Promise<Response>;
  /** Both events APIs in front of a realm, closed after the file. */
  apis(realm: KeycloakRealm): Promise<KeycloakEventsApis>;
  /** A client-credentials token of the realm's client, asked for directly. */
  token(realm: KeycloakRealm, secret?: string): Promise<string>;
  /** Runs the real CLI with the secret in the environment; its output is kept for the search for secrets. */
  harness(args: readonly string[], secret: string, env?: NodeJS.ProcessEnv): Promise<CliRun>;
  /** Every stdout and stderr of the file's runs, and every secret and token they must not show. */
  readonly outputs: readonly string[];
  readonly secrets: string[];
}

/** Asks the run's broker for Keycloak, waiting as long as its start takes (plain http: no client-side timeout). */
function askBroker(broker: string): Promise<KeycloakInfo> {
  return new Promise((resolve, reject) => {
    const req = request(`${broker}/keycloak`, { timeout: KEYCLOAK_WAIT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        if (res.statusCode === 200) resolve(JSON.parse(text) as KeycloakInfo);
        else reject(new Error(`Keycloak could not start: ${text}`));
      });
    });
    req.on("timeout", () =>
      req.destroy(new Error(`Keycloak was not ready within ${KEYCLOAK_WAIT_MS / 1000} s`)),
    );
    req.on("error", reject);
    req.end();
  });
}

function realmOf(
  info: KeycloakInfo,
  name: string,
  clientSecret: string,
  apiClientSecret: string,
): KeycloakRealm {
  const issuer = `${info.url}/realms/${name}`;
  return {
    name,
    issuer,
    tokenUrl: `${issuer}/protocol/openid-connect/token`,
    revokeUrl: `${issuer}/protocol/openid-connect/revoke`,
    clientId: KEYCLOAK_CLIENT_ID,
    clientSecret,
    apiClientId: KEYCLOAK_API_CLIENT_ID,
    apiClientSecret,
  };
}

interface ClientRepresentation {
  clientId: string;
  secret?: string;
  protocolMappers?: Array<{
    name: string;
    protocol: string;
    protocolMapper: string;
    config: Record<string, string>;
  }>;
}

/** The fixture realm under another name, with fresh secrets and the options' policy and mapper. */
async function realmRepresentation(
  name: string,
  secrets: { client: string; api: string },
  options: RealmOptions,
): Promise<unknown> {
  const realm = JSON.parse(await readFile(REALM_FIXTURE, "utf8")) as {
    realm: string;
    clients: ClientRepresentation[];
    [key: string]: unknown;
  };
  realm.realm = name;
  if (options.accessTokenLifespan !== undefined) realm.accessTokenLifespan = options.accessTokenLifespan;
  for (const client of realm.clients) {
    client.secret = client.clientId === KEYCLOAK_CLIENT_ID ? secrets.client : secrets.api;
    if (client.clientId === KEYCLOAK_CLIENT_ID && options.selfAudience === true) {
      client.protocolMappers?.push({
        name: "own audience",
        protocol: "openid-connect",
        protocolMapper: "oidc-audience-mapper",
        config: {
          "included.client.audience": KEYCLOAK_CLIENT_ID,
          "access.token.claim": "true",
          "id.token.claim": "false",
          "introspection.token.claim": "true",
        },
      });
    }
  }
  if (options.rotationGraceSeconds !== undefined) {
    realm.clientProfiles = {
      profiles: [
        {
          name: "secret-rotation",
          executors: [
            {
              executor: "secret-rotation",
              configuration: {
                // The current secret must outlive the test; the old one lives for the grace period.
                "expiration-period": "31536000",
                "rotated-expiration-period": String(options.rotationGraceSeconds),
                "remaining-rotation-period": "0",
              },
            },
          ],
        },
      ],
    };
    realm.clientPolicies = {
      policies: [
        {
          name: "rotate-confidential-secrets",
          enabled: true,
          conditions: [{ condition: "client-access-type", configuration: { type: ["confidential"] } }],
          profiles: ["secret-rotation"],
        },
      ],
    };
  }
  return realm;
}

/**
 * The shared fixtures plus `keycloak`: the run's one Keycloak (started by the slow project's global setup on the
 * first file's request), realms of the file's own, the two events APIs, and the CLI with its outputs kept.
 */
export const keycloakTest = test.extend(
  "keycloak",
  { scope: "file" },
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
  async ({}, { onCleanup }): Promise<KeycloakHarness> => {
    const info = await askBroker(inject("keycloakBroker"));
    const outputs: string[] = [];
    const secrets: string[] = [info.clientSecret, info.apiClientSecret, info.admin.password];
    const cleanups: Array<() => Promise<unknown>> = [];
    onCleanup(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    });
    let adminToken: { value: string; until: number } | undefined;
    async function adminBearer(): Promise<string> {
      if (adminToken !== undefined && adminToken.until > Date.now()) return adminToken.value;
      const response = await fetch(`${info.url}/realms/master/protocol/openid-connect/token`, {
        method: "POST",
        body: new URLSearchParams({
          grant_type: "password",
          client_id: "admin-cli",
          username: info.admin.username,
          password: info.admin.password,
        }),
        signal: AbortSignal.timeout(30_000),
      });
      if (response.status !== 200) throw new Error(`Keycloak refused the admin login (${response.status})`);
      const { access_token, expires_in } = (await response.json()) as {
        access_token: string;
        expires_in: number;
      };
      adminToken = { value: access_token, until: Date.now() + (expires_in * 1000) / 2 };
      return access_token;
    }
    async function admin(method: string, path: string, body?: unknown): Promise<Response> {
      return fetch(`${info.url}/admin${path}`, {
        method,
        headers: {
          authorization: `Bearer ${await adminBearer()}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(60_000),
      });
    }
    return {
      info,
      imported: realmOf(info, KEYCLOAK_REALM, info.clientSecret, info.apiClientSecret),
      admin,
      outputs,
      secrets,
      async realm(options = {}) {
        const name = `harness-${randomBytes(4).toString("hex")}`;
        const client = `kc-client-${randomBytes(16).toString("hex")}`;
        const api = `kc-api-${randomBytes(16).toString("hex")}`;
        secrets.push(client, api);
        const created = await admin(
          "POST",
          "/realms",
          await realmRepresentation(name, { client, api }, options),
        );
        if (created.status !== 201) {
          throw new Error(
            `Keycloak did not create the realm ${name}: ${created.status} ${await created.text()}`,
          );
        }
        cleanups.push(() => admin("DELETE", `/realms/${name}`));
        return realmOf(info, name, client, api);
      },
      async apis(realm) {
        const apis = await startKeycloakEventsApis(realm);
        cleanups.push(() => apis.close());
        return apis;
      },
      async token(realm, secret = realm.clientSecret) {
        const response = await fetch(realm.tokenUrl, {
          method: "POST",
          body: new URLSearchParams({
            grant_type: "client_credentials",
            client_id: realm.clientId,
            client_secret: secret,
          }),
          signal: AbortSignal.timeout(30_000),
        });
        if (response.status !== 200) throw new Error(`no token for ${realm.clientId}: ${response.status}`);
        const token = ((await response.json()) as { access_token: string }).access_token;
        secrets.push(token);
        return token;
      },
      async harness(args, secret, env = {}) {
        const run = await runCli(
          args,
          {
            EVENT_API_CLIENT_SECRET: secret,
            ...(process.env.K6_BIN ? { K6_BIN: process.env.K6_BIN } : {}),
            ...env,
          },
          240_000,
        );
        outputs.push(run.stdout, run.stderr);
        return run;
      },
    };
  },
);
