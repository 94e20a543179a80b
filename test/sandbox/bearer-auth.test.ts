import { decodeJwt, generateKeyPair, SignJWT, UnsecuredJWT } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEMO_CLIENT } from "../../sandbox/index.ts";
import type { TestSandbox } from "./support.ts";
import { challenge, send, startTestSandbox, validEvent } from "./support.ts";

const FORBIDDEN = { Message: "Access to this resource is forbidden" };

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox({ expiresIn: 300 });
});
afterAll(() => t.sandbox.close());
afterEach(() => expect(t.sandbox.stats().internalErrors).toBe(0));

/** Re-encodes a JWT's payload with changes, keeping the original header and signature. */
function tamper(token: string, changes: Record<string, unknown>): string {
  const [header, , signature] = token.split(".");
  const payload = Buffer.from(JSON.stringify({ ...decodeJwt(token), ...changes })).toString("base64url");
  return `${header}.${payload}.${signature}`;
}

async function claimsOf(token: string) {
  return decodeJwt(token);
}

describe("bearer authentication of POST /events (RFC 6750 §3)", () => {
  it("accepts a valid token: 202 with production's message and an evt- EventRef", async () => {
    const got = await t.postEvent(await t.token(), validEvent());
    expect(got.status).toBe(202);
    const body = got.json as { Message: string; EventRef: string };
    expect(body.EventRef).toMatch(
      /^evt-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(body.Message).toBe(`Your event (\`${body.EventRef}\`) was accepted for processing.`);
  });

  it("accepts the scheme in any case (RFC 7235 §2.1)", async () => {
    const token = await t.token();
    const got = await t.postEvent(undefined, validEvent(), { authorization: `bearer ${token}` });
    expect(got.status).toBe(202);
  });

  it("answers a request without credentials with 401, a bare Bearer challenge and production's body", async () => {
    const got = await t.postEvent(undefined, validEvent());
    expect(got.status).toBe(401);
    expect(got.headers["www-authenticate"]).toBe('Bearer realm="event-api-sandbox"');
    expect(got.json).toEqual(FORBIDDEN);
  });

  const badTokens: { name: string; header: () => Promise<string>; description: RegExp }[] = [
    { name: "garbage", header: async () => "Bearer not-a-token", description: /well-formed/ },
    { name: "empty Bearer", header: async () => "Bearer ", description: /Bearer token/ },
    { name: "another scheme", header: async () => `Token ${await t.token()}`, description: /Bearer token/ },
    {
      name: "Basic credentials",
      header: async () => "Basic c2FuZGJveDpzZWNyZXQ=",
      description: /Bearer token/,
    },
    {
      name: "two tokens",
      header: async () => `Bearer ${await t.token()} ${await t.token()}`,
      description: /Bearer/,
    },
    {
      name: "truncated",
      header: async () => `Bearer ${(await t.token()).slice(0, -12)}`,
      description: /signature|well-formed/,
    },
    {
      name: "tampered payload (sub changed)",
      header: async () => `Bearer ${tamper(await t.token(), { sub: "someone-else" })}`,
      description: /signature/,
    },
    {
      name: "tampered payload (exp extended)",
      header: async () => {
        const token = await t.token();
        return `Bearer ${tamper(token, { exp: ((await claimsOf(token)).exp ?? 0) + 86_400 })}`;
      },
      description: /signature/,
    },
    {
      name: "forged with another key",
      header: async () => {
        const claims = await claimsOf(await t.token());
        const { privateKey } = await generateKeyPair("ES256");
        const forged = await new SignJWT(claims)
          .setProtectedHeader({ alg: "ES256", kid: "forged" })
          .sign(privateKey);
        return `Bearer ${forged}`;
      },
      description: /signature/,
    },
    {
      name: "alg none",
      header: async () => `Bearer ${new UnsecuredJWT(await claimsOf(await t.token())).encode()}`,
      description: /alg none/,
    },
    {
      name: "HS256 signed with the public JWKS as secret (algorithm confusion)",
      header: async () => {
        const claims = await claimsOf(await t.token());
        const secret = new TextEncoder().encode((await send(t.sandbox.jwksUrl)).text);
        return `Bearer ${await new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).sign(secret)}`;
      },
      description: /algorithm/,
    },
    {
      name: "wrong audience (forged)",
      header: async () => {
        const claims = await claimsOf(await t.token());
        return `Bearer ${new UnsecuredJWT({ ...claims, aud: "https://elsewhere.example" }).encode()}`;
      },
      description: /alg none/,
    },
    {
      name: "unknown but well-formed JWT from another issuer",
      header: async () => {
        const { privateKey } = await generateKeyPair("ES256");
        const jwt = await new SignJWT({ sub: DEMO_CLIENT.clientId })
          .setProtectedHeader({ alg: "ES256" })
          .setIssuer("https://idp.example")
          .setAudience(t.sandbox.baseUrl)
          .setExpirationTime("1h")
          .sign(privateKey);
        return `Bearer ${jwt}`;
      },
      description: /signature/,
    },
  ];

  it.each(badTokens)(
    "refuses $name with 401 invalid_token and production's body",
    async ({ header, description }) => {
      const got = await t.postEvent(undefined, validEvent(), { authorization: await header() });
      expect(got.status).toBe(401);
      expect(got.json).toEqual(FORBIDDEN);
      const parts = challenge(got.headers["www-authenticate"]);
      expect(parts).toMatchObject({ scheme: "Bearer", realm: "event-api-sandbox", error: "invalid_token" });
      expect(parts?.error_description).toMatch(description);
      // RFC 6750 §3: error_description is %x20-21 / %x23-5B / %x5D-7E.
      expect(parts?.error_description).toMatch(/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/);
    },
  );

  it("does not store the event of a refused request", async () => {
    const token = await t.token();
    const event = validEvent();
    expect((await t.postEvent("forged", event)).status).toBe(401);
    // The same reference is still free: the refused request left nothing behind.
    expect((await t.postEvent(token, event)).status).toBe(202);
  });

  it("protects GET /events/{ref} too", async () => {
    const got = await send(`${t.eventsUrl}/evt-00000000-0000-4000-8000-000000000000`);
    expect(got.status).toBe(401);
    expect(got.headers["www-authenticate"]).toBe('Bearer realm="event-api-sandbox"');
  });
});

describe("sliding expiry over HTTP (spec Authentication rules 5–7)", () => {
  it("keeps a continuously used token valid far past expires_in", async () => {
    const token = await t.token();
    for (let i = 0; i < 10; i += 1) {
      t.clock.advanceSeconds(290);
      expect((await t.postEvent(token, validEvent())).status).toBe(202);
    }
  });

  it("expires a token idle for expires_in, keeps one idle just under it, and a new token then works", async () => {
    const idle = await t.token();
    const nearly = await t.token();
    t.clock.advance(300_000 - 1);
    expect((await t.postEvent(nearly, validEvent())).status).toBe(202);
    t.clock.advance(1);
    const expired = await t.postEvent(idle, validEvent());
    expect(expired.status).toBe(401);
    expect(challenge(expired.headers["www-authenticate"])).toMatchObject({
      error: "invalid_token",
      error_description: "The access token expired",
    });
    // Asked again, after the sweep has dropped it, it is still an expired token, not an unknown one.
    t.clock.advanceSeconds(5);
    const again = await t.postEvent(idle, validEvent());
    expect(challenge(again.headers["www-authenticate"])?.error_description).toBe("The access token expired");
    expect((await t.postEvent(await t.token(), validEvent())).status).toBe(202);
  });

  it("counts an authenticated request whose body is then rejected (400, 415) as a use", async () => {
    const token = await t.token();
    t.clock.advanceSeconds(200);
    expect((await t.postEvent(token, { type: "checkout" })).status).toBe(400);
    t.clock.advanceSeconds(200);
    expect((await t.postEvent(token, "x", { "content-type": "text/plain" })).status).toBe(415);
    t.clock.advanceSeconds(200);
    expect((await t.postEvent(token, validEvent())).status).toBe(202);
  });

  it("counts a GET as a use", async () => {
    const token = await t.token();
    const ref = ((await t.postEvent(token, validEvent())).json as { EventRef: string }).EventRef;
    t.clock.advanceSeconds(250);
    expect((await t.getEvent(token, ref)).status).toBe(200);
    t.clock.advanceSeconds(250);
    expect((await t.postEvent(token, validEvent())).status).toBe(202);
  });

  it("does not count a refused request as a use of some other token", async () => {
    const token = await t.token();
    t.clock.advanceSeconds(200);
    await t.postEvent(tamper(token, { scope: "admin" }), validEvent());
    t.clock.advanceSeconds(100);
    expect((await t.postEvent(token, validEvent())).status).toBe(401);
  });

  it("drops expired tokens from memory as the clock moves (bounded memory)", async () => {
    const separate = await startTestSandbox({ expiresIn: 60 });
    try {
      await Promise.all(Array.from({ length: 40 }, () => separate.token()));
      expect(separate.sandbox.stats().liveTokens).toBe(40);
      separate.clock.advanceSeconds(61);
      const fresh = await separate.token();
      expect(separate.sandbox.stats().liveTokens).toBe(1);
      expect((await separate.postEvent(fresh, validEvent())).status).toBe(202);
    } finally {
      await separate.sandbox.close();
    }
  });
});
