import { Validator } from "@seriousme/openapi-schema-validator";
import type { ValidateFunction } from "ajv/dist/2020.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_CHECKS } from "../../../contracts/index.ts";
import {
  EVENT_STRICTNESS,
  eventSchemas,
  TOKEN_ERROR_CODES,
  tokenErrorSchema,
  tokenResponseSchema,
} from "../../../domain/index.ts";
import type { OpenApiDocument } from "../../../domain/openapi/index.ts";
import { buildOpenApiDocument, PLACEHOLDER_AUTH_URL } from "../../../domain/openapi/index.ts";
import { createEventGenerator, INVALID_VARIANTS, isRejectedAt } from "../../../generators/index.ts";
import { DEMO_CLIENT } from "../../../sandbox/index.ts";
import type { TestSandbox } from "../../sandbox/support.ts";
import { FORM, send, startTestSandbox, tokenForm, validEvent } from "../../sandbox/support.ts";
import { PRODUCTION_TOKEN_RESPONSE } from "../../support/production-token-response.ts";

async function validate(document: unknown) {
  return new Validator().validate(structuredClone(document) as Record<string, unknown>);
}

/** A strict 2020-12 compiler: a schema the OpenAPI document carries must compile as JSON Schema, not only look right. */
function compile(schema: Record<string, unknown>): ValidateFunction {
  const ajv = new Ajv2020({ strict: true, allErrors: true, validateFormats: false });
  return ajv.compile(schema);
}

function schemaOf(document: OpenApiDocument, name: string): Record<string, unknown> {
  const schema = document.components.schemas[name];
  if (schema === undefined) throw new Error(`no components.schemas.${name}`);
  return schema;
}

function responsesOf(document: OpenApiDocument, path: string): Record<string, unknown> {
  const operation = document.paths[path]?.post as { responses?: Record<string, unknown> } | undefined;
  if (operation?.responses === undefined) throw new Error(`no responses for POST ${path}`);
  return operation.responses;
}

/** Every `x-event-harness` annotation in the document, wherever it sits. */
function annotations(node: unknown, found: Array<{ checks: string[] }> = []): Array<{ checks: string[] }> {
  if (node === null || typeof node !== "object") return found;
  for (const [key, value] of Object.entries(node)) {
    if (key === "x-event-harness") found.push(value as { checks: string[] });
    else annotations(value, found);
  }
  return found;
}

describe("OpenAPI document: a valid OpenAPI 3.1 document", () => {
  it("passes @seriousme/openapi-schema-validator as 3.1, with placeholders and with real addresses", async () => {
    for (const document of [
      buildOpenApiDocument(),
      buildOpenApiDocument({ authUrl: "https://auth.example.org/base", baseUrl: "http://127.0.0.1:9/api" }),
      buildOpenApiDocument({
        tokenUrl: "https://sso.example.org/realms/r/protocol/openid-connect/token",
        baseUrl: "https://api.example.org",
        strictness: "lenient",
      }),
    ]) {
      const validator = new Validator();
      const result = await validator.validate(structuredClone(document) as Record<string, unknown>);
      expect(result.errors).toBeUndefined();
      expect(result.valid).toBe(true);
      expect(validator.version).toBe("3.1");
    }
  });

  it("is judged by a validator that does refuse a broken document", async () => {
    // A response without its required description (OpenAPI 3.1 §4.8.17).
    const document = structuredClone(buildOpenApiDocument()) as unknown as {
      paths: Record<string, { post: { responses: Record<string, Record<string, unknown>> } }>;
    };
    delete document.paths["/events"]?.post.responses["2XX"]?.description;
    expect((await validate(document)).valid).toBe(false);
    const badScheme = structuredClone(buildOpenApiDocument()) as unknown as {
      components: { securitySchemes: { oauth2: { flows: Record<string, unknown> } } };
    };
    badScheme.components.securitySchemes.oauth2.flows = { clientCredentials: { scopes: {} } };
    expect((await validate(badScheme)).valid).toBe(false);
  });

  it("every schema compiles as strict JSON Schema 2020-12", () => {
    const document = buildOpenApiDocument();
    for (const name of Object.keys(document.components.schemas)) {
      expect(() => compile(schemaOf(document, name)), name).not.toThrow();
    }
  });

  it("names only contract checks that exist", () => {
    const ids = new Set(ALL_CHECKS.map((check) => check.id));
    const named = annotations(buildOpenApiDocument()).flatMap((annotation) => annotation.checks);
    expect(named.length).toBeGreaterThan(10);
    for (const id of named) expect(ids, id).toContain(id);
  });
});

describe("OpenAPI document: where the API lives", () => {
  it("without addresses: placeholder servers on example.com and the spec's token path", () => {
    const document = buildOpenApiDocument();
    expect(document.servers).toEqual([expect.objectContaining({ url: "{base_url}" })]);
    expect(Object.keys(document.paths)).toEqual(["/oauth/token", "/events"]);
    expect(document.paths["/oauth/token"]?.servers).toEqual([expect.objectContaining({ url: "{auth_url}" })]);
    expect(document.components.securitySchemes.oauth2).toMatchObject({
      type: "oauth2",
      flows: { clientCredentials: { tokenUrl: `${PLACEHOLDER_AUTH_URL}/oauth/token` } },
    });
  });

  it("a token URL: its host as the token path's server, its path as the path, the whole as tokenUrl", () => {
    const tokenUrl = "https://sso.example.org/realms/business/protocol/openid-connect/token";
    const document = buildOpenApiDocument({ tokenUrl, baseUrl: "https://api.example.org/v1" });
    expect(document.servers).toEqual([expect.objectContaining({ url: "https://api.example.org/v1" })]);
    const path = "/realms/business/protocol/openid-connect/token";
    expect(document.paths[path]?.servers).toEqual([
      expect.objectContaining({ url: "https://sso.example.org" }),
    ]);
    expect(document.components.securitySchemes.oauth2).toMatchObject({
      flows: { clientCredentials: { tokenUrl } },
    });
  });

  it("an auth URL: {auth_url}/oauth/token as tokenUrl", () => {
    const document = buildOpenApiDocument({ authUrl: "https://auth.example.org/base" });
    expect(document.components.securitySchemes.oauth2).toMatchObject({
      flows: { clientCredentials: { tokenUrl: "https://auth.example.org/base/oauth/token" } },
    });
    expect(document.paths["/oauth/token"]?.servers).toEqual([
      expect.objectContaining({ url: "https://auth.example.org/base" }),
    ]);
  });

  it("events need a bearer token; the token endpoint needs none", () => {
    const document = buildOpenApiDocument();
    expect(document.paths["/events"]?.post).toMatchObject({
      security: [{ oauth2: [] }, { bearerToken: [] }],
    });
    expect(document.paths["/oauth/token"]?.post).toMatchObject({
      security: [],
      requestBody: { content: { "application/x-www-form-urlencoded": {} } },
    });
  });
});

describe("OpenAPI document: its schemas agree with the zod schemas", () => {
  it.each(EVENT_STRICTNESS)(
    "%s: seeded events validate, and each invalid variant as zod judges it",
    (strictness) => {
      const check = compile(schemaOf(buildOpenApiDocument({ strictness }), "Event"));
      const generator = createEventGenerator({ seed: 11 });
      for (let i = 0; i < 50; i++) {
        const event = generator.next();
        expect(check(event), JSON.stringify(check.errors)).toBe(true);
      }
      let rejected = 0;
      for (const variant of INVALID_VARIANTS) {
        const body = variant.apply(generator.next());
        const byZod = eventSchemas[strictness].safeParse(body).success;
        expect(check(body), `${variant.name} at ${strictness}`).toBe(byZod);
        expect(byZod, `${variant.name} at ${strictness}`).toBe(!isRejectedAt(variant, strictness));
        if (!byZod) rejected += 1;
      }
      expect(rejected).toBeGreaterThan(0);
    },
  );

  it("the production strictness requires exactly production's documented fields", () => {
    const event = schemaOf(buildOpenApiDocument(), "Event");
    expect(event.required).toEqual(["type", "customer", "channel", "transaction"]);
  });

  it("token responses: production's capital-B Bearer passes both; a broken one fails both", () => {
    const check = compile(schemaOf(buildOpenApiDocument(), "TokenResponse"));
    const production = PRODUCTION_TOKEN_RESPONSE;
    const broken = [
      { ...production, token_type: "mac" },
      { ...production, expires_in: "3600" },
      { ...production, expires_in: 0 },
      { ...production, scope: "email  profile" },
      Object.fromEntries(Object.entries(production).filter(([key]) => key !== "expires_in")),
      { ...production, "not-before-policy": 1.5 },
    ];
    // The example's own fields (Keycloak's) may be absent: no rule of the spec needs them.
    const withoutExample = Object.fromEntries(
      Object.entries(production).filter(
        ([key]) => key !== "not-before-policy" && key !== "refresh_expires_in",
      ),
    );
    for (const body of [production, { ...production, token_type: "BEARER" }, withoutExample, ...broken]) {
      expect(check(body), JSON.stringify(body)).toBe(tokenResponseSchema.safeParse(body).success);
    }
    expect(check(production)).toBe(true);
    expect(check(withoutExample)).toBe(true);
    expect(broken.some((body) => check(body))).toBe(false);
  });

  it("token errors: every RFC 6749 §5.2 code passes both; another code fails both", () => {
    const check = compile(schemaOf(buildOpenApiDocument(), "TokenError"));
    for (const error of TOKEN_ERROR_CODES) {
      expect(check({ error, error_description: "x" })).toBe(true);
      expect(tokenErrorSchema.safeParse({ error }).success).toBe(true);
    }
    for (const body of [
      { error: "access_denied" },
      {},
      { error: "invalid_client", error_description: 'a "b"' },
    ]) {
      expect(check(body)).toBe(false);
      expect(tokenErrorSchema.safeParse(body).success).toBe(false);
    }
  });
});

describe("OpenAPI document: the embedded sandbox answers as it says", () => {
  let t: TestSandbox;
  beforeAll(async () => {
    t = await startTestSandbox();
  });
  afterAll(() => t.sandbox.close());

  it("token success, token errors and event answers fit their documented responses", async () => {
    const document = buildOpenApiDocument();
    const tokenResponses = responsesOf(document, "/oauth/token");
    const eventResponses = responsesOf(document, "/events");
    const fits = (responses: Record<string, unknown>, status: number) =>
      `${status}` in responses || `${String(status)[0]}XX` in responses;

    const token = await send(t.tokenUrl, {
      method: "POST",
      headers: { "content-type": FORM },
      body: tokenForm({ audience: t.sandbox.baseUrl }),
    });
    expect(token.status).toBe(200);
    expect(fits(tokenResponses, token.status)).toBe(true);
    expect(compile(schemaOf(document, "TokenResponse"))(token.json)).toBe(true);

    for (const overrides of [
      { client_secret: `${DEMO_CLIENT.clientSecret}-wrong` },
      { grant_type: "password" },
    ]) {
      const refused = await send(t.tokenUrl, {
        method: "POST",
        headers: { "content-type": FORM },
        body: tokenForm(overrides),
      });
      expect(fits(tokenResponses, refused.status), `${refused.status}`).toBe(true);
      expect(compile(schemaOf(document, "TokenError"))(refused.json)).toBe(true);
    }

    const accessToken = (token.json as { access_token: string }).access_token;
    const post = (body: unknown, authorization?: string) =>
      send(`${t.sandbox.baseUrl}/events`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(authorization === undefined ? {} : { authorization }),
        },
        body: JSON.stringify(body),
      });
    const event = validEvent();
    expect(compile(schemaOf(document, "Event"))(event)).toBe(true);
    const answers = [
      await post(event, `Bearer ${accessToken}`),
      await post(validEvent()),
      await post(validEvent({ type: undefined }), `Bearer ${accessToken}`),
      await post(event, `Bearer ${accessToken}`),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([202, 401, 400, 409]);
    for (const answer of answers) expect(fits(eventResponses, answer.status), `${answer.status}`).toBe(true);
  });
});
