import type { EventStrictness } from "../index.ts";
import { SPEC_SCOPES, SPEC_TOKEN_PATH, toJsonSchema } from "../index.ts";

/** Where the document says the API lives; each address left out becomes a placeholder server variable. */
export interface OpenApiTargets {
  /** {auth_url}: the token endpoint is `{auth_url}/oauth/token`. */
  readonly authUrl?: string;
  /** The full token endpoint, instead of authUrl (e.g. Keycloak's). */
  readonly tokenUrl?: string;
  /** {base_url}: events go to `{base_url}/events`. */
  readonly baseUrl?: string;
}

export interface OpenApiOptions extends OpenApiTargets {
  /** Which event fields the request body requires, since the spec does not say (default `production`). */
  readonly strictness?: EventStrictness;
}

export type OpenApiDocument = Record<string, unknown> & {
  readonly openapi: string;
  readonly paths: Record<string, Record<string, unknown>>;
  readonly components: {
    readonly schemas: Record<string, Record<string, unknown>>;
    readonly securitySchemes: Record<string, Record<string, unknown>>;
  };
};

export const OPENAPI_VERSION = "3.1.1";
/** Placeholders in the spec's own words; example.com so no tool ever sends traffic to a real host. */
export const PLACEHOLDER_AUTH_URL = "https://auth.example.com";
export const PLACEHOLDER_BASE_URL = "https://api.example.com";
export const EVENTS_PATH = "/events";

const SCOPE_TEXT: Readonly<Record<string, string>> = {
  profile: "Shown in the spec's token response (Resources: Access token response, scope).",
  email: "Shown in the spec's token response (Resources: Access token response, scope).",
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Record<string, unknown>) => ({ "application/json": { schema } });

/** Where each harness rule comes from and how strictly the harness holds a target to it. */
function source(level: "MUST" | "SHOULD" | "INFO", rule: string, checks: readonly string[]) {
  return { "x-event-harness": { level, rule, checks } };
}

/**
 * How a tool that takes one base URL for the whole document reaches the token endpoint, which lives on its own
 * server: one run per operation, each with its own base.
 */
const ONE_BASE_URL_NOTE =
  "A tool that takes one base URL for the whole document (e.g. `schemathesis run --url`) replaces this server too: test each operation with its own base, `--include-operation-id requestAccessToken --url <this server>` and `--include-operation-id createEvent --url {base_url}`.";

/** The token endpoint as one server and one path: `{auth_url}` + `/oauth/token`, or the user's full URL split. */
function tokenLocation(targets: OpenApiTargets): {
  server: Record<string, unknown>;
  path: string;
  tokenUrl: string;
} {
  if (targets.tokenUrl !== undefined) {
    const url = new URL(targets.tokenUrl);
    return {
      server: {
        url: url.origin,
        description: `The token endpoint's host (--token-url). ${ONE_BASE_URL_NOTE}`,
      },
      path: url.pathname,
      tokenUrl: targets.tokenUrl,
    };
  }
  if (targets.authUrl !== undefined) {
    return {
      server: {
        url: targets.authUrl,
        description: `{auth_url}: the authorisation server. ${ONE_BASE_URL_NOTE}`,
      },
      path: SPEC_TOKEN_PATH,
      tokenUrl: `${targets.authUrl}${SPEC_TOKEN_PATH}`,
    };
  }
  return {
    server: {
      url: "{auth_url}",
      description: `{auth_url}: the authorisation server (a placeholder: give --auth-url or --token-url). ${ONE_BASE_URL_NOTE}`,
      variables: {
        auth_url: { default: PLACEHOLDER_AUTH_URL, description: "The authorisation server's base address." },
      },
    },
    path: SPEC_TOKEN_PATH,
    tokenUrl: `${PLACEHOLDER_AUTH_URL}${SPEC_TOKEN_PATH}`,
  };
}

function apiServer(baseUrl: string | undefined): Record<string, unknown> {
  if (baseUrl !== undefined) return { url: baseUrl, description: "{base_url}: the API." };
  return {
    url: "{base_url}",
    description: "{base_url}: the API (a placeholder: give --base-url).",
    variables: { base_url: { default: PLACEHOLDER_BASE_URL, description: "The API's base address." } },
  };
}

function tokenOperation(): Record<string, unknown> {
  return {
    operationId: "requestAccessToken",
    summary: "Obtain an access token (OAuth 2.0 client-credentials grant)",
    description: [
      "Endpoints §1. The spec sends client_id and client_secret as form fields; RFC 6749 §2.3.1 also lets a",
      "client send them in an HTTP Basic header instead (then not in the form), which the harness tests too",
      "(`--client-auth basic`). A client may ask for a new token at any time (rule 2).",
    ].join(" "),
    tags: ["authentication"],
    // Client credentials travel in the body (or a Basic header), never a bearer token.
    security: [],
    requestBody: {
      required: true,
      content: { "application/x-www-form-urlencoded": { schema: ref("TokenRequest") } },
    },
    responses: {
      "200": {
        description: [
          "The access token response (Resources). The spec shows the body but no status; RFC 6749 §5.1 says 200.",
          "`expires_in` counts from the token's last use (Authentication rules 5 and 6): read it, never assume it.",
        ].join(" "),
        headers: {
          "Cache-Control": {
            description: "`no-store` (RFC 6749 §5.1).",
            schema: { type: "string" },
            ...source("SHOULD", "RFC 6749 §5.1", ["token.no-store"]),
          },
        },
        content: json(ref("TokenResponse")),
        ...source("MUST", "Endpoints §1 rule 1; Resources: Access token response", [
          "token.issued",
          "token.response-schema",
        ]),
      },
      "400": {
        description:
          "A refused token request (RFC 6749 §5.2: invalid_request, invalid_grant, unsupported_grant_type, …). The spec shows no errors.",
        content: json(ref("TokenError")),
        ...source("SHOULD", "RFC 6749 §5.2", ["token.error-format", "token.grant-type-enforced"]),
      },
      "401": {
        description:
          "Client authentication failed (RFC 6749 §5.2: invalid_client); with HTTP Basic, a WWW-Authenticate challenge.",
        headers: {
          "WWW-Authenticate": {
            description: "Sent when the client authenticated with HTTP Basic (RFC 6749 §5.2).",
            schema: { type: "string" },
          },
        },
        content: json(ref("TokenError")),
        ...source("SHOULD", "RFC 6749 §5.2", [
          "token.error-format",
          "token.wrong-secret-refused",
          "token.unknown-client-refused",
        ]),
      },
    },
  };
}

function eventOperation(strictness: EventStrictness): Record<string, unknown> {
  return {
    operationId: "createEvent",
    summary: "Create an event (a customer's transaction in a channel, e.g. a checkout)",
    description: [
      "Endpoints §2. Every call carries `Authorization: Bearer <ACCESS_TOKEN>` (Authentication rule 3).",
      `The spec does not say which fields are required; this body requires the \`${strictness}\` set`,
      "(`event-harness openapi --strictness`). The spec shows no status codes and no response bodies:",
      "the responses below are what the harness accepts, with their sources. A 5xx is never part of the contract.",
    ].join(" "),
    tags: ["events"],
    security: [{ oauth2: [] }, { bearerToken: [] }],
    requestBody: { required: true, content: json(ref("Event")) },
    responses: {
      "2XX": {
        description: [
          "The event was accepted. Neither the status nor the body is shown by the spec; production answers",
          '202 with `{"Message": "Your event (`evt-…`) was accepted for processing.", "EventRef": "evt-…"}`.',
        ].join(" "),
        ...source("MUST", "Endpoints §2", ["events.accepted"]),
      },
      "401": {
        description: [
          "No bearer token, or one that is not valid (Authentication rule 3: the call must be refused).",
          'RFC 6750 §3: 401 with `WWW-Authenticate: Bearer` (`error="invalid_token"` for a bad token).',
        ].join(" "),
        headers: {
          "WWW-Authenticate": {
            description: 'A Bearer challenge (RFC 6750 §3), e.g. `Bearer error="invalid_token"`.',
            schema: { type: "string" },
            ...source("SHOULD", "RFC 6750 §3", ["bearer.challenge"]),
          },
        },
        ...source("MUST", "Authentication rule 3 (refusal); RFC 6750 §3 (the status)", [
          "bearer.missing",
          "bearer.garbage",
          "bearer.other-scheme",
          "bearer.truncated",
          "bearer.tampered",
          "bearer.alg-none",
          "bearer.foreign-key",
        ]),
      },
      "4XX": {
        description: [
          "The event is refused: a body that breaks a documented format or lacks a field production requires",
          "(production: 400), malformed JSON (400), a body not declared as JSON (415), a transaction.reference",
          "already used (production: must be unique; the sandbox answers 409), a body too large (413).",
        ].join(" "),
        ...source("SHOULD", "Resources: Event; RFC 9110 §15.5", [
          "events.invalid-rejected",
          "events.malformed-json",
          "events.wrong-content-type",
        ]),
      },
    },
  };
}

/** An OpenAPI 3.1 document of the Event Submission API, its schemas generated from the harness's zod schemas. */
export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const strictness = options.strictness ?? "production";
  const token = tokenLocation(options);
  const eventSchemaName = strictness === "complete" ? "event" : (`event-${strictness}` as const);
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: "Event Submission API",
      // The spec versions nothing ("Versioning of the API: not shown").
      version: "unversioned",
      summary: "OAuth 2.0 client-credentials token endpoint in front of POST {base_url}/events.",
      description: [
        "Generated by event-api-harness (`event-harness openapi`) from the zod schemas its contract suite checks",
        "with. `x-event-harness` on a response names the rule it follows, how strictly the harness holds a target",
        "to it (MUST fails a run, SHOULD warns) and the contract checks that test it. The rule no OpenAPI tool can",
        "test: a token's `expires_in` counts from its last use (sliding expiry); `event-harness contract --profile",
        "full` does. The token endpoint has its own server (path-level `servers`): a tool that takes one base URL",
        "for every operation tests the events with `--include-operation-id createEvent --url {base_url}` and the",
        "token endpoint in a second run with `--include-operation-id requestAccessToken --url {auth_url}`.",
        "Patterns use ASCII digits (`[0-9]`) and every string has one constraint a generator can satisfy;",
        "`additionalProperties: true` means no constraint: the spec leaves other fields of an event open.",
      ].join(" "),
      // On the Info object, where OpenAPI allows extensions: inside a schema ajv's strict mode refuses the keyword.
      "x-event-harness-strictness": strictness,
    },
    servers: [apiServer(options.baseUrl)],
    tags: [
      { name: "authentication", description: "The authorisation server's token endpoint (Endpoints §1)." },
      { name: "events", description: "Event submission (Endpoints §2)." },
    ],
    paths: {
      [token.path]: { servers: [token.server], post: tokenOperation() },
      [EVENTS_PATH]: { post: eventOperation(strictness) },
    },
    components: {
      schemas: {
        TokenRequest: toJsonSchema("token-request", "input"),
        TokenResponse: toJsonSchema("token-response", "output"),
        TokenError: toJsonSchema("token-error", "output"),
        Event: toJsonSchema(eventSchemaName, "input"),
      },
      securitySchemes: {
        oauth2: {
          type: "oauth2",
          description:
            "Client-credentials grant (Authentication rule 1). The token is sent as `Authorization: Bearer` and lives `expires_in` seconds from its last use.",
          flows: {
            clientCredentials: {
              tokenUrl: token.tokenUrl,
              scopes: Object.fromEntries(SPEC_SCOPES.map((scope) => [scope, SCOPE_TEXT[scope] ?? scope])),
            },
          },
        },
        bearerToken: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "An access token from the token endpoint, for tools that cannot run the OAuth flow.",
        },
      },
    },
  };
}
