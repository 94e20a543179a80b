import { Readable } from "node:stream";
import { request } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEMO_CLIENT } from "../../sandbox/index.ts";
import type { TestSandbox } from "./support.ts";
import { FORM, form, send, startTestSandbox, tokenForm, validEvent } from "./support.ts";

const OTHER = { clientId: "other-shop", clientSecret: "other-secret" };

let t: TestSandbox;
let token: string;
beforeAll(async () => {
  t = await startTestSandbox({ clients: [DEMO_CLIENT, OTHER] });
  token = await t.token();
});
afterAll(() => t.sandbox.close());
afterEach(() => expect(t.sandbox.stats().internalErrors).toBe(0));

interface Invalid {
  Message: string;
  Errors: { path: string; message: string }[];
}

describe("POST /events: validation", () => {
  it("answers 400 naming the first problem and listing every problem path", async () => {
    const got = await t.postEvent(token, {
      customer: { email: "not-an-email" },
      channel: { id: "0f8e1c2a" },
      transaction: { date: "2026-01-02T03:04:05+01:00" },
    });
    expect(got.status).toBe(400);
    expect(got.headers["content-type"]).toMatch(/^application\/json/);
    const body = got.json as Invalid;
    expect(body.Errors.map((error) => error.path)).toEqual([
      "type",
      "customer.email",
      "channel.id",
      "transaction.reference",
      "transaction.date",
    ]);
    expect(body.Message).toBe(`Invalid request: type: ${body.Errors[0]?.message}`);
    expect(body.Errors[0]?.message).toBe("Required, expected string");
    for (const error of body.Errors) expect(error.message.length).toBeGreaterThan(3);
  });

  it("names array positions in paths and accepts extra fields", async () => {
    const ok = await t.postEvent(
      token,
      validEvent({ metadata: { any: ["thing"] }, products: [{ name: "x" }] }),
    );
    expect(ok.status).toBe(202);
    const bad = await t.postEvent(token, validEvent({ customer: [{ email: 1 }] }));
    expect(bad.status).toBe(400);
    expect((bad.json as Invalid).Errors[0]?.path).toBe("customer");
  });

  it.each([
    ["an array", "[]"],
    ["null", "null"],
    ["a string", '"checkout"'],
    ["a number", "42"],
  ])("answers 400 for a body that is %s", async (_name, body) => {
    const got = await t.postEvent(token, body);
    expect(got.status).toBe(400);
    expect((got.json as Invalid).Errors[0]?.path).toBe("");
  });

  it.each([
    ["truncated JSON", '{"type":"checkout"'],
    ["trailing garbage", '{"type":"checkout"} x'],
    ["an empty body", ""],
    ["not JSON at all", "type=checkout"],
  ])("answers 400 for %s", async (_name, body) => {
    const got = await t.postEvent(token, body);
    expect(got.status).toBe(400);
    expect((got.json as Invalid).Message).toMatch(/^Invalid request: the body is not valid JSON/);
  });

  it("answers 415 for a body that is not declared as JSON, and accepts +json and a UTF-8 charset", async () => {
    for (const type of ["text/plain", FORM, "application/xml", "application/json; charset=latin1"]) {
      const got = await t.postEvent(token, validEvent(), { "content-type": type });
      expect(got.status, type).toBe(415);
    }
    const noType = await send(t.eventsUrl, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify(validEvent()),
    });
    expect(noType.status).toBe(415);
    for (const type of [
      "application/json; charset=utf-8",
      "Application/JSON",
      "application/vnd.event+json",
    ]) {
      expect((await t.postEvent(token, validEvent(), { "content-type": type })).status, type).toBe(202);
    }
  });

  it("answers 413 for a body over maxBodyBytes, declared or streamed, and stays usable", async () => {
    const big = JSON.stringify(validEvent({ metadata: { blob: "x".repeat(70 * 1024) } }));
    expect((await t.postEvent(token, big)).status).toBe(413);
    // Chunked, without a Content-Length: the limit is enforced while reading, and the server stops reading.
    async function* chunks() {
      for (let i = 0; i < 200; i += 1) yield Buffer.alloc(1024, 0x20);
    }
    const streamed = await request(t.eventsUrl, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: Readable.from(chunks()),
    });
    expect(streamed.statusCode).toBe(413);
    expect(streamed.headers.connection).toBe("close");
    await streamed.body.dump();
    expect((await t.postEvent(token, validEvent())).status).toBe(202);
  });

  it("honours maxBodyBytes and the other strictness levels", async () => {
    const small = await startTestSandbox({ maxBodyBytes: 300, eventStrictness: "complete" });
    try {
      const smallToken = await small.token();
      const minimal = {
        type: "checkout",
        customer: { email: "a@example.com" },
        channel: { id: "chl-1" },
        transaction: { reference: "r-1" },
      };
      expect((await small.postEvent(smallToken, minimal)).status).toBe(400);
      expect((await small.postEvent(smallToken, validEvent())).status).toBe(202);
      expect((await small.postEvent(smallToken, validEvent({ system: "x".repeat(300) }))).status).toBe(413);
    } finally {
      await small.sandbox.close();
    }
    const lenient = await startTestSandbox({ eventStrictness: "lenient" });
    try {
      const lenientToken = await lenient.token();
      expect((await lenient.postEvent(lenientToken, {})).status).toBe(202);
      expect((await lenient.postEvent(lenientToken, { customer: { email: "nope" } })).status).toBe(400);
    } finally {
      await lenient.sandbox.close();
    }
  });
});

describe("POST /events: uniqueness of transaction.reference", () => {
  it("answers 409 for a reference the same client already used, and accepts it from another client", async () => {
    const event = validEvent();
    const first = await t.postEvent(token, event);
    expect(first.status).toBe(202);
    const again = await t.postEvent(token, { ...event, customer: { email: "b@example.com" } });
    expect(again.status).toBe(409);
    const body = again.json as Invalid;
    expect(body.Message).toContain("must be unique");
    expect(body.Errors).toEqual([{ path: "transaction.reference", message: "must be unique" }]);
    const otherToken = await t.token(
      form({
        grant_type: "client_credentials",
        client_id: OTHER.clientId,
        client_secret: OTHER.clientSecret,
      }),
    );
    expect((await t.postEvent(otherToken, event)).status).toBe(202);
  });
});

describe("GET /events/{ref}", () => {
  it("returns the stored event plus id and createdAt", async () => {
    const event = validEvent({ metadata: { nested: { list: [1, 2, 3] } } });
    const posted = await t.postEvent(token, event);
    const ref = (posted.json as { EventRef: string }).EventRef;
    t.clock.advanceSeconds(1);
    const got = await t.getEvent(token, ref);
    expect(got.status).toBe(200);
    expect(got.headers["content-type"]).toMatch(/^application\/json/);
    const createdAt = new Date(t.clock.now() - 1000).toISOString();
    expect(got.json).toEqual({ ...event, id: ref, createdAt });
  });

  it("keeps a pretty-printed body intact", async () => {
    const event = validEvent();
    const ref = ((await t.postEvent(token, JSON.stringify(event, null, 2))).json as { EventRef: string })
      .EventRef;
    expect((await t.getEvent(token, ref)).json).toMatchObject(event);
  });

  it("answers 404 with an empty body for an unknown ref and for another client's event", async () => {
    const unknown = await t.getEvent(token, "evt-00000000-0000-4000-8000-000000000000");
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe("");
    const ref = ((await t.postEvent(token, validEvent())).json as { EventRef: string }).EventRef;
    const otherToken = await t.token(
      form({
        grant_type: "client_credentials",
        client_id: OTHER.clientId,
        client_secret: OTHER.clientSecret,
      }),
    );
    const foreign = await t.getEvent(otherToken, ref);
    expect(foreign.status).toBe(404);
    expect(foreign.text).toBe("");
  });

  it("keeps only the most recent maxEvents events", async () => {
    const bounded = await startTestSandbox({ maxEvents: 3 });
    try {
      const boundedToken = await bounded.token();
      const refs: string[] = [];
      const events = Array.from({ length: 5 }, () => validEvent());
      for (const event of events) {
        refs.push(((await bounded.postEvent(boundedToken, event)).json as { EventRef: string }).EventRef);
      }
      expect(bounded.sandbox.stats().storedEvents).toBe(3);
      expect((await bounded.getEvent(boundedToken, refs[0] ?? "")).status).toBe(404);
      expect((await bounded.getEvent(boundedToken, refs[4] ?? "")).status).toBe(200);
      // A forgotten event's reference is free again; a remembered one is still a duplicate.
      expect((await bounded.postEvent(boundedToken, events[0])).status).toBe(202);
      expect((await bounded.postEvent(boundedToken, events[4])).status).toBe(409);
    } finally {
      await bounded.sandbox.close();
    }
  });
});

describe("routing", () => {
  it("answers 404 for unknown paths and 405 with Allow for wrong methods", async () => {
    for (const path of ["/", "/api", "/api/event", "/auth/token", "/api/events/a/b"]) {
      const got = await send(`${t.sandbox.authUrl.replace(/\/auth$/, "")}${path}`);
      expect(got.status, path).toBe(404);
    }
    const put = await send(t.eventsUrl, { method: "PUT", headers: { authorization: `Bearer ${token}` } });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe("POST");
    const getList = await send(t.eventsUrl, { headers: { authorization: `Bearer ${token}` } });
    expect(getList.status).toBe(405);
    const deleteOne = await send(`${t.eventsUrl}/evt-1`, { method: "DELETE" });
    expect(deleteOne.status).toBe(405);
    expect(deleteOne.headers.allow).toBe("GET, HEAD");
  });

  it("ignores a query string and answers HEAD like GET without a body", async () => {
    expect((await t.postEvent(undefined, validEvent(), {})).status).toBe(401);
    const withQuery = await send(`${t.eventsUrl}?debug=1`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(validEvent()),
    });
    expect(withQuery.status).toBe(202);
    const ref = (withQuery.json as { EventRef: string }).EventRef;
    const head = await send(`${t.eventsUrl}/${ref}`, {
      method: "HEAD",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
  });

  it("serves the token endpoint and the API under different prefixes", () => {
    expect(t.sandbox.authUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/auth$/);
    expect(t.sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    expect(tokenForm()).toContain("grant_type=client_credentials");
  });
});
