import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { tokenResponseSchema } from "../../domain/index.ts";
import { DEMO_CLIENT } from "../../sandbox/index.ts";
import type { TestSandbox } from "./support.ts";
import { basic, challenge, FORM, form, send, startTestSandbox, tokenForm } from "./support.ts";

let t: TestSandbox;

beforeAll(async () => {
  t = await startTestSandbox({ clients: [DEMO_CLIENT, { clientId: "shop 2", clientSecret: "p@ss:word+1" }] });
});
afterAll(() => t.sandbox.close());
afterEach(() => expect(t.sandbox.stats().internalErrors).toBe(0));

function postToken(body: string, headers: Record<string, string> = {}) {
  return send(t.tokenUrl, { method: "POST", headers: { "content-type": FORM, ...headers }, body });
}

describe("token endpoint: success", () => {
  it("issues a token for form credentials, with every documented field and no-store headers", async () => {
    const got = await postToken(tokenForm({ audience: t.sandbox.baseUrl }));
    expect(got.status).toBe(200);
    expect(got.headers["content-type"]).toMatch(/^application\/json/);
    expect(got.headers["cache-control"]).toBe("no-store");
    expect(got.headers.pragma).toBe("no-cache");
    const body = tokenResponseSchema.parse(got.json);
    expect(Object.keys(body)).toEqual([
      "access_token",
      "expires_in",
      "refresh_expires_in",
      "token_type",
      "not-before-policy",
      "scope",
    ]);
    expect(body).toMatchObject({
      expires_in: 300,
      refresh_expires_in: 0,
      token_type: "bearer",
      scope: "profile email",
    });
    // The client's policy time: the sandbox's start, a real Unix time in seconds.
    expect(body["not-before-policy"]).toBe(Math.floor(t.clock.now() / 1000));
  });

  it("issues a token for HTTP Basic credentials (RFC 6749 §2.3.1), form-urlencoded inside", async () => {
    const got = await postToken(form({ grant_type: "client_credentials" }), {
      authorization: basic("shop 2", "p@ss:word+1"),
    });
    expect(got.status).toBe(200);
    expect(typeof (got.json as { access_token: unknown }).access_token).toBe("string");
  });

  it("accepts a form client_id that repeats the Basic one", async () => {
    const got = await postToken(form({ grant_type: "client_credentials", client_id: DEMO_CLIENT.clientId }), {
      authorization: basic(DEMO_CLIENT.clientId, DEMO_CLIENT.clientSecret),
    });
    expect(got.status).toBe(200);
  });

  it("treats a missing audience as this API and accepts the base URL with a trailing slash", async () => {
    expect((await postToken(tokenForm())).status).toBe(200);
    expect((await postToken(tokenForm({ audience: `${t.sandbox.baseUrl}/` }))).status).toBe(200);
  });

  it("issues a new token on every call (spec rule 2)", async () => {
    const tokens = await Promise.all([t.token(), t.token(), t.token()]);
    expect(new Set(tokens).size).toBe(3);
  });

  it("accepts a charset parameter on the form content type", async () => {
    const got = await postToken(tokenForm(), { "content-type": `${FORM}; charset=UTF-8` });
    expect(got.status).toBe(200);
  });
});

describe("token endpoint: errors (RFC 6749 §5.2)", () => {
  const cases: {
    name: string;
    body: () => string;
    headers?: () => Record<string, string>;
    status: number;
    error: string;
  }[] = [
    {
      name: "wrong content type (JSON)",
      body: () => JSON.stringify({ grant_type: "client_credentials" }),
      headers: () => ({ "content-type": "application/json" }),
      status: 400,
      error: "invalid_request",
    },
    {
      name: "no content type",
      body: () => tokenForm(),
      headers: () => ({ "content-type": "" }),
      status: 400,
      error: "invalid_request",
    },
    {
      name: "missing grant_type",
      body: () => tokenForm({ grant_type: undefined }),
      status: 400,
      error: "invalid_request",
    },
    {
      name: "empty grant_type",
      body: () => tokenForm({ grant_type: "" }),
      status: 400,
      error: "invalid_request",
    },
    {
      name: "missing client_id",
      body: () => tokenForm({ client_id: undefined }),
      status: 400,
      error: "invalid_request",
    },
    {
      name: "missing client_secret",
      body: () => tokenForm({ client_secret: undefined }),
      status: 400,
      error: "invalid_request",
    },
    {
      name: "repeated grant_type",
      body: () => `${tokenForm()}&grant_type=client_credentials`,
      status: 400,
      error: "invalid_request",
    },
    {
      name: "repeated client_id",
      body: () => `${tokenForm()}&client_id=${DEMO_CLIENT.clientId}`,
      status: 400,
      error: "invalid_request",
    },
    {
      name: "Basic and form credentials at once",
      body: () => tokenForm(),
      headers: () => ({ authorization: basic(DEMO_CLIENT.clientId, DEMO_CLIENT.clientSecret) }),
      status: 400,
      error: "invalid_request",
    },
    {
      name: "form client_id different from the Basic one",
      body: () => form({ grant_type: "client_credentials", client_id: "shop 2" }),
      headers: () => ({ authorization: basic(DEMO_CLIENT.clientId, DEMO_CLIENT.clientSecret) }),
      status: 400,
      error: "invalid_request",
    },
    {
      name: "wrong secret",
      body: () => tokenForm({ client_secret: "nope" }),
      status: 401,
      error: "invalid_client",
    },
    {
      name: "unknown client",
      body: () => tokenForm({ client_id: "stranger" }),
      status: 401,
      error: "invalid_client",
    },
    {
      name: "another client's secret",
      body: () => tokenForm({ client_secret: "p@ss:word+1" }),
      status: 401,
      error: "invalid_client",
    },
    {
      name: "unsupported grant type",
      body: () => tokenForm({ grant_type: "password" }),
      status: 400,
      error: "unsupported_grant_type",
    },
    {
      name: "authorization_code grant",
      body: () => tokenForm({ grant_type: "authorization_code" }),
      status: 400,
      error: "unsupported_grant_type",
    },
    {
      name: "audience that is not this API (RFC 8707)",
      body: () => tokenForm({ audience: "https://api.example.com" }),
      status: 400,
      error: "invalid_target",
    },
  ];

  it.each(cases)("$name → $status $error", async ({ body, headers, status, error }) => {
    const got = await postToken(body(), headers?.() ?? {});
    expect(got.status).toBe(status);
    expect(got.headers["content-type"]).toMatch(/^application\/json/);
    expect(got.headers["cache-control"]).toBe("no-store");
    const json = got.json as { error: string; error_description: string };
    expect(json.error).toBe(error);
    expect(json.error_description.length).toBeGreaterThan(10);
    // No Basic challenge unless the client tried Basic.
    expect(got.headers["www-authenticate"]).toBeUndefined();
  });

  it("challenges with Basic when Basic credentials fail (RFC 6749 §5.2)", async () => {
    const got = await postToken(form({ grant_type: "client_credentials" }), {
      authorization: basic(DEMO_CLIENT.clientId, "wrong"),
    });
    expect(got.status).toBe(401);
    expect((got.json as { error: string }).error).toBe("invalid_client");
    expect(challenge(got.headers["www-authenticate"])).toMatchObject({
      scheme: "Basic",
      realm: "event-api-sandbox",
    });
  });

  it("refuses malformed Basic credentials and other schemes with 401 invalid_client", async () => {
    for (const authorization of [
      "Basic !!!",
      "Basic ",
      `Basic ${Buffer.from("no-colon").toString("base64")}`,
      "Bearer x",
    ]) {
      const got = await postToken(form({ grant_type: "client_credentials" }), { authorization });
      expect(got.status, authorization).toBe(401);
      expect((got.json as { error: string }).error).toBe("invalid_client");
    }
  });

  it("answers 413 for a body over maxBodyBytes and 405 with Allow for GET", async () => {
    const big = await postToken(tokenForm({ padding: "x".repeat(70 * 1024) }));
    expect(big.status).toBe(413);
    const get = await send(t.tokenUrl);
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe("POST");
  });

  it("never reveals whether a client id exists: same answer for unknown client and wrong secret", async () => {
    const unknown = await postToken(tokenForm({ client_id: "stranger" }));
    const wrong = await postToken(tokenForm({ client_secret: "nope" }));
    expect(unknown.text).toBe(wrong.text);
  });
});
