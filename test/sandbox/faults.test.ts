import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT, UnsecuredJWT } from "jose";
import { request } from "undici";
import { describe, expect } from "vitest";
import type { FaultName, SandboxOptions } from "../../sandbox/index.ts";
import { DEMO_CLIENT, FAULTS } from "../../sandbox/index.ts";
import type { TestSandbox } from "./support.ts";
import { basic, FORM, form, test as it, send, tokenForm, validEvent } from "./support.ts";

function postToken(t: TestSandbox, body: string, headers: Record<string, string> = {}) {
  return send(t.tokenUrl, { method: "POST", headers: { "content-type": FORM, ...headers }, body });
}

function tamper(token: string, changes: Record<string, unknown>): string {
  const [header, , signature] = token.split(".");
  return `${header}.${Buffer.from(JSON.stringify({ ...decodeJwt(token), ...changes })).toString("base64url")}.${signature}`;
}

async function forge(token: string): Promise<string> {
  const { privateKey } = await generateKeyPair("ES256");
  return new SignJWT(decodeJwt(token)).setProtectedHeader({ alg: "ES256", kid: "forged" }).sign(privateKey);
}

/** What each fault does that the correct sandbox does not (the correct behaviour is tested elsewhere). */
const observations: Record<
  FaultName,
  { options?: SandboxOptions; observe: (t: TestSandbox) => Promise<void> }
> = {
  "token-any-grant-type": {
    async observe(t) {
      expect((await postToken(t, tokenForm({ grant_type: "password" }))).status).toBe(200);
      expect((await postToken(t, tokenForm({ grant_type: undefined }))).status).toBe(400);
    },
  },
  "token-wrong-secret-accepted": {
    async observe(t) {
      expect((await postToken(t, tokenForm({ client_secret: "wrong" }))).status).toBe(200);
      expect((await postToken(t, tokenForm({ client_id: "stranger" }))).status).toBe(401);
    },
  },
  "token-unknown-client-accepted": {
    async observe(t) {
      const token = await t.token(tokenForm({ client_id: "stranger", client_secret: "whatever" }));
      expect(decodeJwt(token).sub).toBe("stranger");
      expect((await t.postEvent(token, validEvent())).status).toBe(202);
      expect((await postToken(t, tokenForm({ client_secret: "wrong" }))).status).toBe(401);
    },
  },
  "token-missing-expires-in": {
    async observe(t) {
      const body = (await postToken(t, tokenForm())).json as Record<string, unknown>;
      expect(body).not.toHaveProperty("expires_in");
      expect(body.token_type).toBe("bearer");
    },
  },
  "token-string-expires-in": {
    async observe(t) {
      expect(((await postToken(t, tokenForm())).json as Record<string, unknown>).expires_in).toBe("300");
    },
  },
  "token-type-mac": {
    async observe(t) {
      expect(((await postToken(t, tokenForm())).json as Record<string, unknown>).token_type).toBe("mac");
    },
  },
  "token-no-example-fields": {
    async observe(t) {
      const body = (await postToken(t, tokenForm())).json as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(["access_token", "expires_in", "scope", "token_type"]);
    },
  },
  "token-opaque": {
    async observe(t) {
      const token = await t.token();
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect((await t.postEvent(token, validEvent())).status).toBe(202);
    },
  },
  "token-unsigned": {
    async observe(t) {
      const token = await t.token();
      expect(decodeProtectedHeader(token).alg).toBe("none");
      expect((await t.postEvent(token, validEvent())).status).toBe(202);
    },
  },
  "token-json-only": {
    async observe(t) {
      const formAnswer = await postToken(t, tokenForm());
      expect(formAnswer.status).toBe(400);
      expect((formAnswer.json as { error: string }).error).toBe("invalid_request");
      const json = await send(t.tokenUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          client_id: DEMO_CLIENT.clientId,
          client_secret: DEMO_CLIENT.clientSecret,
          grant_type: "client_credentials",
        }),
      });
      expect(json.status).toBe(200);
    },
  },
  "token-reissue-broken": {
    async observe(t) {
      const first = await t.token();
      const second = await t.token();
      expect((await t.postEvent(second, validEvent())).status).toBe(401);
      expect((await t.postEvent(first, validEvent())).status).toBe(202);
    },
  },
  "token-no-cache-headers": {
    async observe(t) {
      const got = await postToken(t, tokenForm());
      expect(got.status).toBe(200);
      expect(got.headers["cache-control"]).toBeUndefined();
      expect(got.headers.pragma).toBeUndefined();
    },
  },
  "token-no-basic-auth": {
    async observe(t) {
      const got = await postToken(t, form({ grant_type: "client_credentials" }), {
        authorization: basic(DEMO_CLIENT.clientId, DEMO_CLIENT.clientSecret),
      });
      expect(got.status).toBe(401);
      expect((await postToken(t, tokenForm())).status).toBe(200);
    },
  },
  "token-basic-only": {
    async observe(t) {
      const got = await postToken(t, tokenForm());
      expect(got.status).toBe(401);
      expect((got.json as Record<string, unknown>).error).toBe("invalid_client");
      const viaBasic = await postToken(t, form({ grant_type: "client_credentials" }), {
        authorization: basic(DEMO_CLIENT.clientId, DEMO_CLIENT.clientSecret),
      });
      expect(viaBasic.status).toBe(200);
    },
  },
  "token-basic-unchecked": {
    async observe(t) {
      for (const [id, secret] of [
        [DEMO_CLIENT.clientId, "wrong"],
        ["stranger", "whatever"],
      ] as const) {
        const got = await postToken(t, form({ grant_type: "client_credentials" }), {
          authorization: basic(id, secret),
        });
        expect(got.status).toBe(200);
      }
      expect((await postToken(t, tokenForm({ client_secret: "wrong" }))).status).toBe(401);
      expect((await postToken(t, tokenForm({ client_id: "stranger" }))).status).toBe(401);
    },
  },
  "token-form-unchecked": {
    async observe(t) {
      expect((await postToken(t, tokenForm({ client_secret: "wrong" }))).status).toBe(200);
      expect((await postToken(t, tokenForm({ client_id: "stranger" }))).status).toBe(200);
      const viaBasic = await postToken(t, form({ grant_type: "client_credentials" }), {
        authorization: basic(DEMO_CLIENT.clientId, "wrong"),
      });
      expect(viaBasic.status).toBe(401);
    },
  },
  "token-error-not-json": {
    async observe(t) {
      const got = await postToken(t, tokenForm({ client_secret: "wrong" }));
      expect(got.status).toBe(401);
      expect(got.headers["content-type"]).toMatch(/^text\/plain/);
      expect(got.json).toBeUndefined();
      expect(got.text).not.toMatch(/invalid_client|invalid_request/);
      expect((await postToken(t, tokenForm({ grant_type: "password" }))).text).not.toMatch(
        /unsupported_grant_type/,
      );
    },
  },
  "token-narrow-scope": {
    async observe(t) {
      expect(((await postToken(t, tokenForm())).json as Record<string, unknown>).scope).toBe("openid");
    },
  },
  "token-repeated-params-accepted": {
    async observe(t) {
      const repeated = `${tokenForm()}&grant_type=password`;
      expect((await postToken(t, repeated)).status).toBe(200);
      expect((await postToken(t, `grant_type=password&${tokenForm()}`)).status).toBe(400);
    },
  },
  "token-empty-param-5xx": {
    async observe(t) {
      expect((await postToken(t, tokenForm({ audience: "" }))).status).toBe(500);
      expect((await postToken(t, `${tokenForm()}&x_unknown=`)).status).toBe(200);
    },
  },
  "bearer-not-required": {
    async observe(t) {
      expect((await t.postEvent(undefined, validEvent())).status).toBe(202);
      expect((await t.postEvent("garbage", validEvent())).status).toBe(401);
    },
  },
  "bearer-any-token": {
    async observe(t) {
      expect((await t.postEvent("garbage", validEvent())).status).toBe(202);
      expect((await t.postEvent(undefined, validEvent())).status).toBe(401);
    },
  },
  "bearer-signature-unchecked": {
    async observe(t) {
      const token = await t.token();
      expect((await t.postEvent(tamper(token, { scope: "admin" }), validEvent())).status).toBe(202);
      expect((await t.postEvent(await forge(token), validEvent())).status).toBe(202);
      expect((await t.postEvent(new UnsecuredJWT(decodeJwt(token)).encode(), validEvent())).status).toBe(401);
      expect((await t.postEvent(tamper(token, { aud: "https://elsewhere" }), validEvent())).status).toBe(401);
    },
  },
  "bearer-alg-none": {
    async observe(t) {
      const token = await t.token();
      expect((await t.postEvent(new UnsecuredJWT(decodeJwt(token)).encode(), validEvent())).status).toBe(202);
      expect((await t.postEvent(await forge(token), validEvent())).status).toBe(401);
    },
  },
  "bearer-any-scheme": {
    async observe(t) {
      const token = await t.token();
      expect((await t.postEvent(undefined, validEvent(), { authorization: `Token ${token}` })).status).toBe(
        202,
      );
      expect((await t.postEvent(undefined, validEvent(), { authorization: token })).status).toBe(202);
      expect((await t.postEvent("garbage", validEvent())).status).toBe(401);
    },
  },
  "bearer-no-www-authenticate": {
    async observe(t) {
      const missing = await t.postEvent(undefined, validEvent());
      const bad = await t.postEvent("garbage", validEvent());
      expect([missing.status, bad.status]).toEqual([401, 401]);
      expect(missing.headers["www-authenticate"]).toBeUndefined();
      expect(bad.headers["www-authenticate"]).toBeUndefined();
    },
  },
  "bearer-5xx": {
    async observe(t) {
      expect((await t.postEvent("garbage", validEvent())).status).toBe(500);
      expect((await t.postEvent(undefined, validEvent())).status).toBe(401);
    },
  },
  "bearer-rejected-stored": {
    async observe(t) {
      const event = validEvent();
      const rejected = await t.postEvent("garbage", event);
      expect(rejected.status).toBe(401);
      const ref = (rejected.json as { EventRef: string }).EventRef;
      expect(ref).toMatch(/^evt-/);
      const token = await t.token();
      expect((await t.getEvent(token, ref)).status).toBe(200);
      expect((await t.postEvent(token, event)).status).toBe(409);
    },
  },
  "events-5xx": {
    async observe(t) {
      const token = await t.token();
      expect((await t.postEvent(token, validEvent())).status).toBe(500);
      expect((await t.postEvent(token, { type: "checkout" })).status).toBe(400);
    },
  },
  "events-invalid-5xx": {
    async observe(t) {
      const token = await t.token();
      expect((await t.postEvent(token, { type: "checkout" })).status).toBe(500);
      expect((await t.postEvent(token, "{not json")).status).toBe(500);
      expect((await t.postEvent(token, validEvent())).status).toBe(202);
    },
  },
  "events-accept-invalid": {
    async observe(t) {
      const token = await t.token();
      const accepted = await t.postEvent(token, { type: "checkout", customer: { email: "nope" } });
      expect(accepted.status).toBe(202);
      expect((await t.postEvent(token, "{not json")).status).toBe(400);
    },
  },
  "events-5xx-fraction": {
    options: { faultRate: 0.25 },
    async observe(t) {
      const token = await t.token();
      const statuses: number[] = [];
      for (let i = 0; i < 20; i += 1) statuses.push((await t.postEvent(token, validEvent())).status);
      // Deterministic and evenly spread: every 4th valid event.
      expect(statuses).toEqual(Array.from({ length: 20 }, (_, i) => (i % 4 === 3 ? 503 : 202)));
      expect((await t.postEvent(token, { type: "checkout" })).status).toBe(400);
    },
  },
  "events-500-one-in-seven": {
    options: { faultSeed: 11 },
    async observe(t) {
      const token = await t.token();
      const statuses: number[] = [];
      for (let i = 0; i < 140; i += 1) statuses.push((await t.postEvent(token, validEvent())).status);
      const failed = statuses.filter((status) => status === 500).length;
      // About one in seven (20 of 140 on average), at random: neither never nor evenly spread.
      expect(failed).toBeGreaterThanOrEqual(8);
      expect(failed).toBeLessThanOrEqual(35);
      expect(new Set(statuses)).toEqual(new Set([202, 500]));
      expect((await t.postEvent(token, { type: "checkout" })).status).toBe(400);
    },
  },
  "events-any-content-type": {
    async observe(t) {
      const token = await t.token();
      const posted = await send(t.eventsUrl, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "text/plain" },
        body: JSON.stringify(validEvent()),
      });
      expect(posted.status).toBe(202);
    },
  },
  "events-not-stored": {
    async observe(t) {
      const token = await t.token();
      const event = validEvent();
      const posted = await t.postEvent(token, event);
      expect(posted.status).toBe(202);
      const got = await t.getEvent(token, (posted.json as { EventRef: string }).EventRef);
      expect(got.status).toBe(404);
      expect((await t.postEvent(token, event)).status).toBe(409);
    },
  },
  "events-no-read-route": {
    async observe(t) {
      const token = await t.token();
      const posted = await t.postEvent(token, validEvent());
      expect(posted.status).toBe(202);
      const got = await t.getEvent(token, (posted.json as { EventRef: string }).EventRef);
      expect(got.status).toBe(404);
      expect(got.json).toEqual({ Message: "No resource at this path" });
    },
  },
  "events-5xx-email-local-part": {
    async observe(t) {
      const token = await t.token();
      expect((await t.postEvent(token, validEvent())).status).toBe(202);
      for (const email of ["ada+orders@example.com", "josé@example.com"])
        expect((await t.postEvent(token, validEvent({ customer: { email } }))).status).toBe(500);
      expect((await t.postEvent(token, validEvent({ customer: { email: "a+b" } }))).status).toBe(400);
    },
  },
  "events-5xx-long-reference": {
    async observe(t) {
      const token = await t.token();
      const withReference = (reference: string) =>
        validEvent({ transaction: { reference, date: "2026-01-02T03:04:05.678Z" } });
      expect((await t.postEvent(token, withReference("r".repeat(64)))).status).toBe(202);
      expect((await t.postEvent(token, withReference("s".repeat(65)))).status).toBe(500);
    },
  },
  "events-5xx-quote-reference": {
    async observe(t) {
      const token = await t.token();
      const event = validEvent({ transaction: { reference: "o'brien-1", date: "2026-01-02T03:04:05.678Z" } });
      expect((await t.postEvent(token, event)).status).toBe(500);
      expect((await t.postEvent(token, validEvent())).status).toBe(202);
    },
  },
  "events-5xx-emoji-system": {
    async observe(t) {
      const token = await t.token();
      expect((await t.postEvent(token, validEvent({ system: "shop 🛒" }))).status).toBe(500);
      expect((await t.postEvent(token, validEvent({ system: "Kassensystem Süd" }))).status).toBe(202);
    },
  },
  "events-5xx-unknown-property": {
    async observe(t) {
      const token = await t.token();
      const { customer: _, channel: __, ...rest } = validEvent();
      const spec = { ...rest, customer: { email: "a@example.com" }, channel: { id: "chl-1" } };
      expect((await t.postEvent(token, spec)).status).toBe(202);
      expect((await t.postEvent(token, validEvent())).status).toBe(500);
      const { customer: ___, channel: ____, ...other } = validEvent();
      const extra = { ...other, customer: { email: "a@example.com" }, channel: { id: "chl-1" }, x: 1 };
      expect((await t.postEvent(token, extra)).status).toBe(500);
    },
  },
  "events-5xx-null-field": {
    async observe(t) {
      const token = await t.token();
      expect((await t.postEvent(token, validEvent({ type: null }))).status).toBe(500);
      expect((await t.postEvent(token, validEvent({ system: null }))).status).toBe(400);
    },
  },
  "events-5xx-huge-integer": {
    async observe(t) {
      const token = await t.token();
      const text = (n: string) => JSON.stringify(validEvent()).replace(/}$/, `,"n":${n}}`);
      expect((await t.postEvent(token, text("9007199254740992"))).status).toBe(202);
      expect((await t.postEvent(token, text("-9007199254740993"))).status).toBe(500);
      expect((await t.postEvent(token, text("1e400"))).status).toBe(202);
    },
  },
  "events-5xx-deep-nesting": {
    async observe(t) {
      const token = await t.token();
      const nested = (depth: number) => JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`);
      expect((await t.postEvent(token, validEvent({ metadata: nested(99) }))).status).toBe(202);
      expect((await t.postEvent(token, validEvent({ metadata: nested(100) }))).status).toBe(500);
    },
  },
  "events-lenient-dates": {
    async observe(t) {
      const token = await t.token();
      for (const date of ["2026-01-02T03:04:05Z", "2026-01-02T03:04:05.678+01:00", "2026-01-02"]) {
        const event = validEvent();
        const answer = await t.postEvent(token, {
          ...event,
          transaction: { ...(event.transaction as object), date },
        });
        expect(answer.status, date).toBe(202);
      }
      const event = validEvent();
      const bad = { ...event, transaction: { ...(event.transaction as object), date: "02/01/2026" } };
      expect((await t.postEvent(token, bad)).status).toBe(400);
    },
  },
  "events-numbers-as-strings": {
    async observe(t) {
      const token = await t.token();
      expect((await t.postEvent(token, validEvent({ type: 1, systemVersion: 1.2 }))).status).toBe(202);
      expect((await t.postEvent(token, validEvent({ type: true }))).status).toBe(400);
    },
  },
  "expiry-fixed": {
    async observe(t) {
      const token = await t.token();
      for (let i = 0; i < 2; i += 1) {
        t.clock.advanceSeconds(140);
        expect((await t.postEvent(token, validEvent())).status).toBe(202);
      }
      t.clock.advanceSeconds(20);
      expect((await t.postEvent(token, validEvent())).status).toBe(401);
    },
  },
  "token-secret-case-insensitive": {
    async observe(t) {
      const upper = DEMO_CLIENT.clientSecret.toUpperCase();
      expect((await postToken(t, tokenForm({ client_secret: upper }))).status).toBe(200);
      expect((await postToken(t, tokenForm({ client_secret: `${DEMO_CLIENT.clientSecret}x` }))).status).toBe(
        401,
      );
    },
  },
  "token-5xx-missing-param": {
    async observe(t) {
      expect((await postToken(t, tokenForm({ grant_type: undefined }))).status).toBe(500);
      expect((await postToken(t, tokenForm({ client_secret: undefined }))).status).toBe(500);
      const basicOnly = tokenForm({ client_id: undefined, client_secret: undefined });
      const header = { authorization: basic(DEMO_CLIENT.clientId, DEMO_CLIENT.clientSecret) };
      expect((await postToken(t, basicOnly, header)).status).toBe(200);
    },
  },
  "token-5xx-long-value": {
    async observe(t) {
      expect((await postToken(t, tokenForm({ client_id: "c".repeat(1_001) }))).status).toBe(500);
      expect((await postToken(t, tokenForm({ client_id: "c".repeat(1_000) }))).status).toBe(401);
    },
  },
  "token-basic-5xx-unknown-param": {
    async observe(t) {
      const header = { authorization: basic(DEMO_CLIENT.clientId, DEMO_CLIENT.clientSecret) };
      const form = "grant_type=client_credentials";
      expect((await postToken(t, `${form}&x_client_version=1`, header)).status).toBe(500);
      expect((await postToken(t, form, header)).status).toBe(200);
      expect((await postToken(t, `${tokenForm()}&x_client_version=1`)).status).toBe(200);
    },
  },
  "events-5xx-long-email": {
    async observe(t) {
      const token = await t.token();
      const long = `${"a".repeat(60)}@${"b".repeat(40)}.example.com`;
      expect((await t.postEvent(token, validEvent({ customer: { email: long } }))).status).toBe(500);
      expect(
        (await t.postEvent(token, validEvent({ customer: { email: `${"a".repeat(60)}@example.com` } })))
          .status,
      ).toBe(202);
    },
  },
  "events-5xx-idn-email": {
    async observe(t) {
      const token = await t.token();
      expect(
        (await t.postEvent(token, validEvent({ customer: { email: "a@müller.example.com" } }))).status,
      ).toBe(500);
      expect(
        (await t.postEvent(token, validEvent({ customer: { email: "a@xn--mller-kva.example.com" } }))).status,
      ).toBe(202);
      expect((await t.postEvent(token, validEvent({ customer: { email: "jörg@example.com" } }))).status).toBe(
        202,
      );
    },
  },
  "events-email-shape-unchecked": {
    async observe(t) {
      const token = await t.token();
      expect((await t.postEvent(token, validEvent({ customer: { email: "no address" } }))).status).toBe(202);
      expect((await t.postEvent(token, validEvent({ customer: { email: 7 } }))).status).toBe(400);
    },
  },
  "events-5xx-long-system-version": {
    async observe(t) {
      const token = await t.token();
      expect((await t.postEvent(token, validEvent({ systemVersion: "1".repeat(51) }))).status).toBe(500);
      expect((await t.postEvent(token, validEvent({ systemVersion: "1".repeat(50) }))).status).toBe(202);
    },
  },
  "events-5xx-non-ascii-type": {
    async observe(t) {
      const token = await t.token();
      expect((await t.postEvent(token, validEvent({ type: "commande-ä" }))).status).toBe(500);
      expect((await t.postEvent(token, validEvent({ type: "order" }))).status).toBe(202);
    },
  },
  "events-leap-every-fourth-year": {
    async observe(t) {
      const token = await t.token();
      const on = (date: string) => {
        const event = validEvent();
        return t.postEvent(token, { ...event, transaction: { ...(event.transaction as object), date } });
      };
      expect((await on("2100-02-29T12:00:00.000Z")).status).toBe(202);
      expect((await on("2023-02-29T12:00:00.000Z")).status).toBe(400);
    },
  },
  "events-channel-prefix-unchecked": {
    async observe(t) {
      const token = await t.token();
      expect((await t.postEvent(token, validEvent({ channel: { id: "CHL-1" } }))).status).toBe(202);
      expect((await t.postEvent(token, validEvent({ channel: { id: 1 } }))).status).toBe(400);
    },
  },
  "events-array-body-accepted": {
    async observe(t) {
      const token = await t.token();
      expect((await t.postEvent(token, [validEvent(), validEvent()])).status).toBe(202);
      expect((await t.postEvent(token, [])).status).toBe(400);
      expect((await t.postEvent(token, [validEvent({ type: 1 })])).status).toBe(400);
    },
  },
  "events-5xx-utf16-body": {
    async observe(t) {
      const token = await t.token();
      const utf16 = Buffer.from(`\ufeff${JSON.stringify(validEvent())}`, "utf16le");
      const headers = {
        "content-type": "application/json; charset=utf-16",
        authorization: `Bearer ${token}`,
      };
      expect((await send(t.eventsUrl, { method: "POST", headers, body: utf16 })).status).toBe(500);
      expect((await t.postEvent(token, validEvent())).status).toBe(202);
    },
  },
  "events-5xx-bearer-lowercase": {
    async observe(t) {
      const token = await t.token();
      expect((await t.postEvent(undefined, validEvent(), { authorization: `bearer ${token}` })).status).toBe(
        500,
      );
      expect((await t.postEvent(undefined, validEvent(), { authorization: `Bearer  ${token}` })).status).toBe(
        202,
      );
    },
  },
  "events-strict-content-type": {
    async observe(t) {
      const token = await t.token();
      const charset = { "content-type": "application/json; charset=utf-8" };
      expect((await t.postEvent(token, validEvent(), charset)).status).toBe(415);
      expect((await t.postEvent(token, validEvent())).status).toBe(202);
    },
  },
  "events-5xx-escaped-surrogates": {
    async observe(t) {
      const token = await t.token();
      const text = JSON.stringify(validEvent({ system: "shop" })).replace('"shop"', '"shop \\ud83d\\uded2"');
      expect((await t.postEvent(token, text)).status).toBe(500);
      expect((await t.postEvent(token, validEvent({ system: "shop 🛒" }))).status).toBe(202);
    },
  },
  "expiry-never": {
    async observe(t) {
      const token = await t.token();
      t.clock.advanceSeconds(10 * 300);
      expect((await t.postEvent(token, validEvent())).status).toBe(202);
    },
  },
  "expiry-early": {
    async observe(t) {
      const token = await t.token();
      t.clock.advanceSeconds(149);
      expect((await t.postEvent(token, validEvent())).status).toBe(202);
      t.clock.advanceSeconds(150);
      expect((await t.postEvent(token, validEvent())).status).toBe(401);
    },
  },
  "expiry-no-renewal": {
    async observe(t) {
      const before = await t.token();
      t.clock.advanceSeconds(301);
      expect((await t.postEvent(before, validEvent())).status).toBe(401);
      const renewed = await t.token();
      expect((await t.postEvent(renewed, validEvent())).status).toBe(401);
    },
  },
  slow: {
    async observe(t) {
      const outcome = await request(t.tokenUrl, {
        method: "POST",
        headers: { "content-type": FORM },
        body: tokenForm(),
        headersTimeout: 300,
      }).then(
        (response) => `answered ${response.statusCode}`,
        (error: unknown) => (error as { code?: string }).code,
      );
      expect(outcome).toBe("UND_ERR_HEADERS_TIMEOUT");
    },
  },
  reset: {
    async observe(t) {
      const outcome = await request(t.tokenUrl, {
        method: "POST",
        headers: { "content-type": FORM },
        body: tokenForm(),
      }).then(
        (response) => `answered ${response.statusCode}`,
        (error: unknown) => (error as { code?: string }).code,
      );
      expect(outcome).toMatch(/^(UND_ERR_SOCKET|ECONNRESET)$/);
    },
  },
  "non-json": {
    async observe(t) {
      const got = await postToken(t, tokenForm());
      expect(got.status).toBe(200);
      expect(got.headers["content-type"]).toMatch(/^text\/html/);
      expect(got.json).toBeUndefined();
      expect((await send(t.sandbox.jwksUrl)).status).toBe(200);
    },
  },
};

describe("faults", () => {
  it("every fault in the catalogue has a one-line description and an observation below", () => {
    expect(Object.keys(observations).sort()).toEqual(FAULTS.map((fault) => fault.name).sort());
    for (const fault of FAULTS) {
      expect(fault.description).toMatch(/^[^\n]{10,120}$/);
      expect(["token", "bearer", "events", "expiry", "transport"]).toContain(fault.area);
    }
  });

  it.for(FAULTS.map((fault) => fault.name))("%s has its observable effect", async (name, { testSandbox }) => {
    const { options = {}, observe } = observations[name];
    const t = await testSandbox({ ...options, faults: [name] });
    expect(t.sandbox.faults).toEqual([name]);
    await observe(t);
    expect(t.sandbox.stats().internalErrors).toBe(0);
  });
});
