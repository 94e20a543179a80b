import { describe, expect } from "vitest";
import { parseRotationBody } from "../../sandbox/admin-endpoint.ts";
import { AdminTokenGuard, checkAdminToken } from "../../sandbox/admin-token.ts";
import { DEMO_CLIENT, startSandbox } from "../../sandbox/index.ts";
import type { Answer, TestSandbox } from "./support.ts";
import { challenge, FORM, test as it, send, tokenForm, validEvent } from "./support.ts";

const ADMIN_TOKEN = "test-admin-token-0123456789abcdef";

function rotateUrl(sb: TestSandbox, clientId = DEMO_CLIENT.clientId): string {
  return `${sb.sandbox.authUrl}/admin/clients/${encodeURIComponent(clientId)}/rotate`;
}

function rotate(
  sb: TestSandbox,
  body: unknown,
  { token = ADMIN_TOKEN, clientId = DEMO_CLIENT.clientId, contentType = "application/json" } = {},
): Promise<Answer> {
  return send(rotateUrl(sb, clientId), {
    method: "POST",
    headers: {
      ...(token === "" ? {} : { authorization: `Bearer ${token}` }),
      ...(contentType === "" ? {} : { "content-type": contentType }),
    },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
}

function grant(sb: TestSandbox, secret: string): Promise<Answer> {
  return send(sb.tokenUrl, {
    method: "POST",
    headers: { "content-type": FORM },
    body: tokenForm({ client_secret: secret }),
  });
}

interface Rotated {
  client_id: string;
  client_secret: string;
  "not-before-policy": number;
  old_secret_valid_until: number | null;
}

describe("POST {authUrl}/admin/clients/{clientId}/rotate", () => {
  it("rotates with no overlap by default: the old secret is refused at once, earlier tokens keep working", async ({
    testSandbox,
  }) => {
    const sb = await testSandbox({ adminToken: ADMIN_TOKEN });
    const before = await sb.token();
    const answer = await rotate(sb, { overlap_seconds: 0, revoke_tokens: false });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(answer.headers["cache-control"]).toBe("no-store");
    const body = answer.json as Rotated;
    expect(Object.keys(body)).toEqual([
      "client_id",
      "client_secret",
      "not-before-policy",
      "old_secret_valid_until",
    ]);
    expect(body.client_id).toBe(DEMO_CLIENT.clientId);
    expect(body.client_secret).not.toBe(DEMO_CLIENT.clientSecret);
    expect(body.client_secret.length).toBeGreaterThanOrEqual(32);
    expect(body.old_secret_valid_until).toBeNull();
    expect(body["not-before-policy"]).toBe(Math.floor(1_800_000_000_000 / 1000));
    expect(sb.sandbox.clients).toEqual([
      { clientId: DEMO_CLIENT.clientId, clientSecret: body.client_secret },
    ]);
    expect((await grant(sb, DEMO_CLIENT.clientSecret)).status).toBe(401);
    expect((await grant(sb, body.client_secret)).status).toBe(200);
    expect((await sb.postEvent(before, validEvent())).status).toBe(202);
  });

  it("treats an empty body as no overlap and no revocation", async ({ testSandbox }) => {
    const sb = await testSandbox({ adminToken: ADMIN_TOKEN });
    const answer = await rotate(sb, undefined, { contentType: "" });
    expect(answer.status).toBe(200);
    expect((answer.json as Rotated).old_secret_valid_until).toBeNull();
  });

  it("keeps the old secret for the overlap (clock time) and says until when", async ({ testSandbox }) => {
    const sb = await testSandbox({ adminToken: ADMIN_TOKEN });
    const answer = await rotate(sb, { overlap_seconds: 60 });
    expect(answer.status).toBe(200);
    const body = answer.json as Rotated;
    expect(body.old_secret_valid_until).toBe(1_800_000_000 + 60);
    sb.clock.advanceSeconds(59);
    expect((await grant(sb, DEMO_CLIENT.clientSecret)).status).toBe(200);
    sb.clock.advanceSeconds(1);
    expect((await grant(sb, DEMO_CLIENT.clientSecret)).status).toBe(401);
    expect((await grant(sb, body.client_secret)).status).toBe(200);
  });

  it("revokes earlier tokens on request and moves the not-before-policy to the rotation time", async ({
    testSandbox,
  }) => {
    const sb = await testSandbox({ adminToken: ADMIN_TOKEN });
    const before = await sb.token();
    sb.clock.advanceSeconds(10);
    const answer = await rotate(sb, { overlap_seconds: 30, revoke_tokens: true });
    expect(answer.status).toBe(200);
    const body = answer.json as Rotated;
    expect(body["not-before-policy"]).toBe(1_800_000_000 + 10);
    const refused = await sb.postEvent(before, validEvent());
    expect(refused.status).toBe(401);
    expect(challenge(refused.headers["www-authenticate"])?.error_description).toBe(
      "The access token was revoked",
    );
    // The overlap still lets the old secret get a new token, which works.
    const again = await grant(sb, DEMO_CLIENT.clientSecret);
    expect(again.status).toBe(200);
    expect((again.json as Record<string, number>)["not-before-policy"]).toBe(1_800_000_010);
    const fresh = (again.json as { access_token: string }).access_token;
    expect((await sb.postEvent(fresh, validEvent())).status).toBe(202);
  });

  it("answers 401 with a Bearer challenge and changes nothing without the admin token", async ({
    testSandbox,
  }) => {
    const sb = await testSandbox({ adminToken: ADMIN_TOKEN });
    const missing = await rotate(sb, {}, { token: "" });
    expect(missing.status).toBe(401);
    expect(missing.headers["www-authenticate"]).toBe('Bearer realm="event-api-sandbox-admin"');
    expect(missing.headers["cache-control"]).toBe("no-store");
    expect(missing.json).toMatchObject({ error: "unauthorized" });
    for (const token of [
      "wrong-admin-token-0123456789abcdef",
      `${ADMIN_TOKEN}x`,
      "x",
      ADMIN_TOKEN.slice(1),
    ]) {
      const wrong = await rotate(sb, {}, { token });
      expect(wrong.status).toBe(401);
      expect(challenge(wrong.headers["www-authenticate"])).toMatchObject({
        scheme: "Bearer",
        realm: "event-api-sandbox-admin",
        error: "invalid_token",
      });
    }
    const otherScheme = await send(rotateUrl(sb), {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from(`admin:${ADMIN_TOKEN}`).toString("base64")}` },
    });
    expect(otherScheme.status).toBe(401);
    // The API's tokens are not admin tokens.
    expect((await rotate(sb, {}, { token: await sb.token() })).status).toBe(401);
    expect(sb.sandbox.clients).toEqual([DEMO_CLIENT]);
    expect((await grant(sb, DEMO_CLIENT.clientSecret)).status).toBe(200);
  });

  it("answers 401 before 404, so an unauthenticated caller cannot probe client ids", async ({
    testSandbox,
  }) => {
    const sb = await testSandbox({ adminToken: ADMIN_TOKEN });
    expect((await rotate(sb, {}, { token: "", clientId: "stranger" })).status).toBe(401);
    const unknown = await rotate(sb, {}, { clientId: "stranger" });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ error: "not_found" });
  });

  it.for([
    ["not JSON", "{overlap", /not valid JSON/],
    ["an array", "[]", /JSON object/],
    ["a string", '"60"', /JSON object/],
    ["an unknown field (a typo must not mean no overlap)", { overlap: 60 }, /unknown field.*"overlap"/],
    ["a negative overlap", { overlap_seconds: -1 }, /overlap_seconds must be a whole number from 0 to 86400/],
    ["a fractional overlap", { overlap_seconds: 1.5 }, /overlap_seconds/],
    ["an overlap above a day", { overlap_seconds: 86_401 }, /overlap_seconds/],
    ["an overlap as a string", { overlap_seconds: "60" }, /overlap_seconds/],
    ["revoke_tokens as a string", { revoke_tokens: "yes" }, /revoke_tokens must be true or false/],
  ] as const)("answers 400 for %s and rotates nothing", async ([, body, reason], { testSandbox }) => {
    const sb = await testSandbox({ adminToken: ADMIN_TOKEN });
    const answer = await rotate(sb, body);
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: "invalid_request" });
    expect((answer.json as { error_description: string }).error_description).toMatch(reason);
    expect(sb.sandbox.clients).toEqual([DEMO_CLIENT]);
  });

  it("answers 415 for a body that is not JSON by its Content-Type, 413 for a huge one, 405 for GET", async ({
    testSandbox,
  }) => {
    const sb = await testSandbox({ adminToken: ADMIN_TOKEN });
    expect((await rotate(sb, "overlap_seconds=60", { contentType: FORM })).status).toBe(415);
    expect((await rotate(sb, { overlap_seconds: 0, pad: "x".repeat(10_000) })).status).toBe(413);
    const get = await send(rotateUrl(sb), { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe("POST");
    expect(sb.sandbox.clients).toEqual([DEMO_CLIENT]);
  });

  it("routes only the exact path, and client ids that need percent-encoding", async ({ testSandbox }) => {
    const sb = await testSandbox({
      adminToken: ADMIN_TOKEN,
      clients: [{ clientId: "shop/eu 1", clientSecret: "shop-secret-1" }],
    });
    const base = `${sb.sandbox.authUrl}/admin/clients`;
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}` };
    expect((await send(`${base}/rotate`, { method: "POST", headers })).status).toBe(404);
    expect((await send(`${base}//rotate`, { method: "POST", headers })).status).toBe(404);
    expect((await send(`${base}/a/b/rotate`, { method: "POST", headers })).status).toBe(404);
    const rotated = await rotate(sb, {}, { clientId: "shop/eu 1" });
    expect(rotated.status).toBe(200);
    expect((rotated.json as Rotated).client_id).toBe("shop/eu 1");
  });
});

describe("the admin token", () => {
  it("is random per start by default and exposed on the running sandbox", async () => {
    const one = await startSandbox({ port: 0 });
    const two = await startSandbox({ port: 0 });
    try {
      expect(one.adminToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(two.adminToken).not.toBe(one.adminToken);
      const answer = await send(`${one.authUrl}/admin/clients/${DEMO_CLIENT.clientId}/rotate`, {
        method: "POST",
        headers: { authorization: `Bearer ${one.adminToken}` },
      });
      expect(answer.status).toBe(200);
      expect(
        (
          await send(`${two.authUrl}/admin/clients/${DEMO_CLIENT.clientId}/rotate`, {
            method: "POST",
            headers: { authorization: `Bearer ${one.adminToken}` },
          })
        ).status,
      ).toBe(401);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it.each([
    ["too short", "short-token"],
    ["with a space", "an admin token with spaces"],
    ["with a quote", 'admin-token-0123456789"x'],
    ["too long", "a".repeat(513)],
  ])("refuses a given token that is %s", async (_name, token) => {
    await expect(startSandbox({ port: 0, adminToken: token })).rejects.toThrow(/adminToken/);
    expect(() => checkAdminToken(token)).toThrow(/adminToken/);
  });

  it("compares in constant time without throwing on tokens of another length", () => {
    const guard = new AdminTokenGuard(ADMIN_TOKEN);
    expect(guard.matches(ADMIN_TOKEN)).toBe(true);
    expect(guard.matches("")).toBe(false);
    expect(guard.matches(`${ADMIN_TOKEN}${ADMIN_TOKEN}`)).toBe(false);
  });
});

describe("parseRotationBody", () => {
  it("fills in the defaults and reads both fields", () => {
    expect(parseRotationBody("")).toEqual({ ok: true, request: { overlapSeconds: 0, revokeTokens: false } });
    expect(parseRotationBody("{}")).toEqual({
      ok: true,
      request: { overlapSeconds: 0, revokeTokens: false },
    });
    expect(parseRotationBody('{"overlap_seconds":86400,"revoke_tokens":true}')).toEqual({
      ok: true,
      request: { overlapSeconds: 86_400, revokeTokens: true },
    });
  });
});
