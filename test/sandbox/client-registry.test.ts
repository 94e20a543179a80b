import { describe, expect } from "vitest";
import { DEMO_CLIENT } from "../../sandbox/index.ts";
import type { TestSandbox } from "./support.ts";
import { challenge, FORM, test as it, send, tokenForm, validEvent } from "./support.ts";

function grant(sandbox: TestSandbox, secret: string) {
  return send(sandbox.tokenUrl, {
    method: "POST",
    headers: { "content-type": FORM },
    body: tokenForm({ client_secret: secret }),
  });
}

describe("issueToken and secret rotation (the sandbox handle)", () => {
  it("issues tokens the API accepts without an HTTP round trip, for registered clients only", async ({
    testSandbox,
  }) => {
    const t = await testSandbox();
    const token = await t.sandbox.issueToken(DEMO_CLIENT.clientId);
    expect((await t.postEvent(token, validEvent())).status).toBe(202);
    await expect(t.sandbox.issueToken("stranger")).rejects.toThrow(/unknown client/);
  });

  it("refuses the old secret at once by default and keeps earlier tokens valid", async ({ testSandbox }) => {
    const t = await testSandbox();
    const before = await t.token();
    const rotated = await t.sandbox.rotateSecret(DEMO_CLIENT.clientId);
    expect(rotated.clientId).toBe(DEMO_CLIENT.clientId);
    expect(rotated.clientSecret).not.toBe(DEMO_CLIENT.clientSecret);
    expect(t.sandbox.clients).toEqual([rotated]);
    expect((await grant(t, DEMO_CLIENT.clientSecret)).status).toBe(401);
    expect((await grant(t, rotated.clientSecret)).status).toBe(200);
    expect((await t.postEvent(before, validEvent())).status).toBe(202);
  });

  it("accepts the old secret during the overlap (clock time), then refuses it", async ({ testSandbox }) => {
    const t = await testSandbox();
    const rotated = await t.sandbox.rotateSecret(DEMO_CLIENT.clientId, { overlapSeconds: 60 });
    t.clock.advanceSeconds(59);
    expect((await grant(t, DEMO_CLIENT.clientSecret)).status).toBe(200);
    t.clock.advanceSeconds(1);
    expect((await grant(t, DEMO_CLIENT.clientSecret)).status).toBe(401);
    expect((await grant(t, rotated.clientSecret)).status).toBe(200);
  });

  it("revokes earlier tokens on request and moves the not-before-policy", async ({ testSandbox }) => {
    const t = await testSandbox();
    const before = await t.token();
    const policyBefore = ((await grant(t, DEMO_CLIENT.clientSecret)).json as Record<string, number>)[
      "not-before-policy"
    ];
    t.clock.advanceSeconds(10);
    const rotated = await t.sandbox.rotateSecret(DEMO_CLIENT.clientId, { revokeTokens: true });
    const refused = await t.postEvent(before, validEvent());
    expect(refused.status).toBe(401);
    expect(challenge(refused.headers["www-authenticate"])?.error_description).toBe(
      "The access token was revoked",
    );
    const after = await grant(t, rotated.clientSecret);
    expect((after.json as Record<string, number>)["not-before-policy"]).toBe((policyBefore ?? 0) + 10);
    const fresh = (after.json as { access_token: string }).access_token;
    expect((await t.postEvent(fresh, validEvent())).status).toBe(202);
  });

  it("rejects a rotation of an unknown client or a negative overlap", async ({ testSandbox }) => {
    const t = await testSandbox();
    await expect(t.sandbox.rotateSecret("stranger")).rejects.toThrow(/unknown client/);
    await expect(t.sandbox.rotateSecret(DEMO_CLIENT.clientId, { overlapSeconds: -1 })).rejects.toThrow(
      /overlap/,
    );
  });
});
