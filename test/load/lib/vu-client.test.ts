import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { completeEventSchema } from "../../../domain/index.ts";
import { createEventGenerator } from "../../../generators/index.ts";
import type {
  ClientModel,
  EventTemplate,
  HeldToken,
  MetricRecorders,
  TokenRequestReason,
  VuClientDeps,
  VuResponse,
  VuSettings,
} from "../../../load/index.ts";
import {
  assembleEventBody,
  CLIENT_MODELS,
  classifyRejection,
  createVuClient,
  eventReference,
  extendedPastIssue,
  outlivedIdle,
  parseTokenResponse,
  REFRESH_REASONS,
  survivedIdle,
  TEMPLATE_BLOCK_SHIFT,
  toEventTemplate,
  tokenRequestReason,
  WARM_UP_INDEX,
} from "../../../load/index.ts";
import { seededUniform } from "../../support/seeded-uniform.ts";

const START = Date.parse("2026-11-22T03:00:00.000Z");
const EXPIRES_IN = 10;
const MARGIN_MS = 1_000;
const TOKEN_URL = "http://127.0.0.1:9/auth/oauth/token";
const EVENTS_URL = "http://127.0.0.1:9/api/events";
const CREDENTIALS = [
  { client_id: "one", client_secret: "one-secret" },
  { client_id: "two", client_secret: "two-secret" },
];
const TEMPLATES: readonly EventTemplate[] = createEventGenerator({ seed: 3, runId: "tmpl" })
  .take(40)
  .map(toEventTemplate);

function settings(clientModel: ClientModel, extra: Partial<VuSettings> = {}): VuSettings {
  return {
    tokenUrl: TOKEN_URL,
    clientAuth: "post",
    eventsUrl: EVENTS_URL,
    audience: "http://127.0.0.1:9/api",
    runId: "run-1",
    dataFile: "/tmp/event-templates.json",
    summaryFile: "/tmp/summary.json",
    clientModel,
    marginMs: MARGIN_MS,
    timeoutMs: 10_000,
    ...extra,
  };
}

/** The `kind` tag of token_expiries. */
type ExpiryKind = "unexpected" | "idle" | "outlived" | "extended" | "survived";

type Sample = readonly [
  metric: keyof MetricRecorders,
  value: number | boolean,
  tags?: Record<string, string>,
];
type Call = { readonly url: string; readonly body: unknown; readonly params: unknown };

/** A scripted k6 world: event statuses come from a queue (202 when empty); token requests succeed unless told. */
class World {
  readonly calls: Call[] = [];
  /** How many requests had been sent at each capResponseBodies call. */
  readonly capsAt: number[] = [];
  readonly samples: Sample[] = [];
  readonly eventStatuses: number[] = [];
  tokenStatus = 200;
  private issued = 0;

  readonly record: MetricRecorders = {
    tokenRequest: (v, t) => this.samples.push(["tokenRequest", v, { ...t }]),
    expiry: (v, t) => this.samples.push(["expiry", v, { ...t }]),
    eventRejected: (v, t) => this.samples.push(["eventRejected", v, { ...t }]),
    eventFailed: (v) => this.samples.push(["eventFailed", v]),
    redirect: (v, t) => this.samples.push(["redirect", v, { ...t }]),
  };

  readonly http = {
    post: (url: string, body: unknown, params: unknown): VuResponse => {
      this.calls.push({ url, body, params });
      if (url === TOKEN_URL) {
        this.issued += 1;
        const body =
          this.tokenStatus === 200
            ? JSON.stringify({ access_token: `token-${this.issued}`, expires_in: EXPIRES_IN })
            : '{"error":"invalid_client"}';
        return { status: this.tokenStatus, body, timings: { duration: 3 } };
      }
      return { status: this.eventStatuses.shift() ?? 202, timings: { duration: 1 } };
    },
  };

  deps(
    clientModel: ClientModel,
    vu = 3,
    extra: Partial<VuSettings> = {},
    tokenParams?: Record<string, string>,
  ): VuClientDeps {
    return {
      settings: settings(clientModel, extra),
      credentialsJson: JSON.stringify(CREDENTIALS),
      tokenParamsJson: tokenParams === undefined ? undefined : JSON.stringify(tokenParams),
      http: this.http,
      vuIdInTest: () => vu,
      templates: TEMPLATES,
      record: this.record,
      base64: (text) => Buffer.from(text, "utf8").toString("base64"),
      capResponseBodies: () => this.capsAt.push(this.calls.length),
      bodyCapBytes: 1024,
    };
  }

  /** The body of the last request sent. */
  lastBody(): string {
    return String(this.calls.at(-1)?.body);
  }

  count(metric: keyof MetricRecorders, kind?: ExpiryKind): number {
    return this.samples.filter(([name, , tags]) => name === metric && tags?.kind === kind).length;
  }

  /** Token requests whose tags include `tags`: how the reports read token_requests' sub-metrics. */
  tokenRequests(tags: Record<string, string>): number {
    return this.samples.filter(
      ([name, , sample]) =>
        name === "tokenRequest" && Object.entries(tags).every(([key, value]) => sample?.[key] === value),
    ).length;
  }

  /** Refreshes as the reports derive them: issued token requests of the reasons idle, lifetime and rejected. */
  derivedRefreshes(): number {
    return REFRESH_REASONS.reduce((n, reason) => n + this.tokenRequests({ reason, outcome: "issued" }), 0);
  }
}

/**
 * The rules as token-policy.ts states them, applied the way the harness's client did before it was compacted into
 * one closure: the reference the client must agree with, call for call and sample for sample.
 */
function referenceClient(world: World, clientModel: ClientModel, counted: { refreshes: number }) {
  let held:
    | (HeldToken & { lastSuccessAtMs: number | undefined; token: string; extended: boolean })
    | undefined;
  const renew = (reason: TokenRequestReason) => {
    const response = world.http.post(TOKEN_URL, {}, {});
    const at = Date.now();
    const parsed = parseTokenResponse(response.status, response.body);
    if (parsed === undefined) {
      if (response.status >= 300 && response.status < 400)
        world.record.redirect(1, { endpoint: "token", status: String(response.status) });
      world.record.tokenRequest(1, { reason, outcome: "failed", status: String(response.status) });
      held = undefined;
      return undefined;
    }
    world.record.tokenRequest(1, { reason, outcome: "issued" });
    // The former token_refreshes counter's rule: a token for a refresh reason that replaces a held one.
    if (held !== undefined && REFRESH_REASONS.includes(reason)) counted.refreshes += 1;
    held = {
      issuedAtMs: at,
      expiresInSeconds: parsed.expiresInSeconds,
      lastSuccessAtMs: undefined,
      token: parsed.accessToken,
      extended: false,
    };
    return held;
  };
  const finish = (status: number, reason?: string) => {
    const accepted = status >= 200 && status < 300;
    if (status >= 300 && status < 400)
      world.record.redirect(1, { endpoint: "events", status: String(status) });
    world.record.eventFailed(!accepted);
    if (!accepted)
      world.record.eventRejected(1, { status: reason ?? (status === 0 ? "network" : String(status)) });
    return accepted;
  };
  const countRejection = (token: HeldToken, sentAtMs: number) => {
    if (classifyRejection(token, sentAtMs, MARGIN_MS) === "unexpected-expiry")
      world.record.expiry(1, { kind: "unexpected" });
    else world.record.expiry(1, { kind: "idle" });
  };
  return (newIteration: boolean, probe: boolean): boolean => {
    const now = Date.now();
    const reason =
      probe && held ? undefined : tokenRequestReason(clientModel, held, now, MARGIN_MS, newIteration);
    let token = reason === undefined ? held : renew(reason);
    if (token === undefined) return finish(0, "no-token");
    let sentAtMs = Date.now();
    let status = world.http.post(EVENTS_URL, "", {}).status;
    if (status === 401) {
      countRejection(token, sentAtMs);
      token = renew("rejected");
      if (token === undefined) return finish(401, "no-token");
      sentAtMs = Date.now();
      status = world.http.post(EVENTS_URL, "", {}).status;
      if (status === 401) countRejection(token, sentAtMs);
    }
    if (status >= 200 && status < 300) {
      if (outlivedIdle(token, sentAtMs, MARGIN_MS)) world.record.expiry(1, { kind: "outlived" });
      if (survivedIdle(token, sentAtMs, MARGIN_MS)) world.record.expiry(1, { kind: "survived" });
      if (!token.extended && extendedPastIssue(token, sentAtMs, MARGIN_MS)) {
        token.extended = true;
        world.record.expiry(1, { kind: "extended" });
      }
      token.lastSuccessAtMs = sentAtMs;
    }
    return finish(status);
  };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(START);
});

afterEach(() => {
  vi.useRealTimers();
});

describe("createVuClient: event bodies", () => {
  it("builds each body from a template with the VU's unique reference and the date now", () => {
    const world = new World();
    const send = createVuClient(world.deps("sliding", 3));
    const references = new Set<string>();
    for (let iteration = 0; iteration < 40; iteration += 1) {
      vi.setSystemTime(START + iteration * 7);
      for (let index = 0; index < 2; index += 1) {
        expect(send(iteration, index, index === 0, false)).toBe(true);
        const body = world.lastBody();
        const template = TEMPLATES[
          (3 + (iteration >> TEMPLATE_BLOCK_SHIFT)) % TEMPLATES.length
        ] as EventTemplate;
        const date = new Date(START + iteration * 7).toISOString();
        expect(body).toBe(assembleEventBody(template, eventReference("run-1", 3, iteration, index), date));
        const event = JSON.parse(body) as { transaction: { reference: string; date: string } };
        expect(completeEventSchema.safeParse(event).success).toBe(true);
        expect(event.transaction.date).toBe(date);
        references.add(event.transaction.reference);
      }
    }
    expect(references.size).toBe(80);
  });

  it("moves to the next template every 16 iterations, so VUs together use the whole pool", () => {
    const world = new World();
    const send = createVuClient(world.deps("sliding", 1));
    const used = new Set<string>();
    for (let iteration = 0; iteration < 16 * 5; iteration += 1) {
      send(iteration, 0, true, false);
      used.add(world.lastBody().slice(0, 60));
    }
    expect(used.size).toBe(5);
  });
});

describe("createVuClient: tokens", () => {
  it("caps response bodies before its first token request, so no token or event body is read uncapped", () => {
    const world = new World();
    const send = createVuClient(world.deps("sliding", 2));
    expect(send(0, 0, true, false)).toBe(true);
    expect(world.calls.map((call) => call.url)).toEqual([TOKEN_URL, EVENTS_URL]);
    expect(world.capsAt[0]).toBe(0);
  });

  it("warms up by fetching the token the first event needs, sending no event and recording no event sample", () => {
    const world = new World();
    const send = createVuClient(world.deps("sliding", 2));
    expect(send(0, WARM_UP_INDEX, true, false)).toBe(true);
    expect(world.calls.map((call) => call.url)).toEqual([TOKEN_URL]);
    expect(world.samples).toEqual([["tokenRequest", 1, { reason: "initial", outcome: "issued" }]]);
    // The first event uses the warmed-up token: no second token request.
    expect(send(0, 0, true, false)).toBe(true);
    expect(world.calls.map((call) => call.url)).toEqual([TOKEN_URL, EVENTS_URL]);
    // A VU that already holds a token fetches nothing more when warmed up again.
    expect(send(1, WARM_UP_INDEX, true, false)).toBe(true);
    expect(world.calls).toHaveLength(2);
  });

  it("reports a failed warm-up token, and its first event fetches one again", () => {
    const world = new World();
    world.tokenStatus = 401;
    const send = createVuClient(world.deps("sliding", 2));
    expect(send(0, WARM_UP_INDEX, true, false)).toBe(false);
    expect(world.count("eventFailed")).toBe(0);
    world.tokenStatus = 200;
    expect(send(0, 0, true, false)).toBe(true);
    expect(world.calls.map((call) => call.url)).toEqual([TOKEN_URL, TOKEN_URL, EVENTS_URL]);
  });

  it("spreads VUs over the credentials and sends event requests with the held token and the events tag", () => {
    for (const [vu, clientId] of [
      [1, "one"],
      [2, "two"],
      [3, "one"],
    ] as const) {
      const world = new World();
      createVuClient(world.deps("sliding", vu))(0, 0, true, false);
      const [tokenCall, eventCall] = world.calls;
      expect(tokenCall?.body).toMatchObject({ client_id: clientId, grant_type: "client_credentials" });
      expect(tokenCall?.params).toMatchObject({
        tags: { endpoint: "token" },
        responseType: "text",
        redirects: 0,
      });
      expect(eventCall?.params).toEqual({
        headers: { Authorization: "Bearer token-1", "Content-Type": "application/json" },
        tags: { endpoint: "events" },
        timeout: 10_000,
        redirects: 0,
      });
    }
  });

  it("authenticates with HTTP Basic when told: form-urlencoded id and secret in the header, not in the form", () => {
    const world = new World();
    const odd = [{ client_id: "shop 1", client_secret: "pa ss:wörd+/!" }];
    createVuClient({
      ...world.deps("sliding", 1, { clientAuth: "basic", scope: "profile email" }),
      credentialsJson: JSON.stringify(odd),
    })(0, 0, true, false);
    const [tokenCall] = world.calls;
    expect(tokenCall?.body).toEqual({
      grant_type: "client_credentials",
      audience: "http://127.0.0.1:9/api",
      scope: "profile email",
    });
    const params = tokenCall?.params as { headers: { Authorization: string } } | undefined;
    const header = params?.headers.Authorization ?? "";
    const decoded = Buffer.from(header.replace(/^Basic /, ""), "base64").toString("utf8");
    // RFC 6749 Appendix B: decoding each half as a form value gives the credentials back.
    const [id, secret] = decoded.split(":").map((part) => new URLSearchParams(`v=${part}`).get("v"));
    expect({ id, secret }).toEqual({ id: "shop 1", secret: "pa ss:wörd+/!" });
    expect(decoded).toBe("shop+1:pa+ss%3Aw%C3%B6rd%2B%2F%21");
  });

  it("sends the form fields and no scope by default", () => {
    const world = new World();
    createVuClient(world.deps("sliding", 1))(0, 0, true, false);
    expect(world.calls[0]?.body).toEqual({
      client_id: "one",
      client_secret: "one-secret",
      grant_type: "client_credentials",
      audience: "http://127.0.0.1:9/api",
    });
    expect((world.calls[0]?.params as { headers?: unknown } | undefined)?.headers).toBeUndefined();
  });

  it("sends --resource and every --token-param as form fields, after which the harness's own fields win", () => {
    const world = new World();
    createVuClient(
      world.deps(
        "sliding",
        1,
        { resource: "http://127.0.0.1:9/api", tokenParamNames: ["organization"] },
        { organization: "org_1" },
      ),
    )(0, 0, true, false);
    expect(world.calls[0]?.body).toEqual({
      resource: "http://127.0.0.1:9/api",
      organization: "org_1",
      client_id: "one",
      client_secret: "one-secret",
      grant_type: "client_credentials",
      audience: "http://127.0.0.1:9/api",
    });
  });

  it("counts a 401 for a token in use as a violation, then renews and retries once", () => {
    const world = new World();
    const send = createVuClient(world.deps("sliding"));
    send(0, 0, true, false);
    vi.setSystemTime(START + 2_000);
    world.eventStatuses.push(401);
    expect(send(1, 0, true, false)).toBe(true);
    expect(world.count("expiry", "unexpected")).toBe(1);
    expect(world.samples).toContainEqual(["tokenRequest", 1, { reason: "rejected", outcome: "issued" }]);
    expect(world.derivedRefreshes()).toBe(1);
    expect(world.calls.map((c) => c.url)).toEqual([TOKEN_URL, EVENTS_URL, EVENTS_URL, TOKEN_URL, EVENTS_URL]);
  });

  it("confirms an idle expiry for a 401 after a long idle gap (a probe sends the held token as it is)", () => {
    const world = new World();
    const send = createVuClient(world.deps("sliding"));
    send(0, 0, true, false);
    vi.setSystemTime(START + (EXPIRES_IN + 5) * 1000);
    world.eventStatuses.push(401);
    expect(send(1, 0, true, true)).toBe(true);
    expect(world.count("expiry", "idle")).toBe(1);
    expect(world.count("expiry", "unexpected")).toBe(0);
  });

  it("flags a token accepted after idling expires_in + margin as outliving its lifetime", () => {
    const world = new World();
    const send = createVuClient(world.deps("refresh-on-401"));
    send(0, 0, true, false);
    vi.setSystemTime(START + EXPIRES_IN * 1000 + MARGIN_MS);
    send(1, 0, true, false);
    expect(world.count("expiry", "outlived")).toBe(1);
  });

  it("follows no redirect: every request says redirects 0, and a 3xx token or event is a failure and a redirect", () => {
    const world = new World();
    const send = createVuClient(world.deps("sliding"));
    world.tokenStatus = 308;
    expect(send(0, 0, true, false)).toBe(false);
    world.tokenStatus = 200;
    world.eventStatuses.push(307);
    expect(send(1, 0, true, false)).toBe(false);
    for (const call of world.calls) expect(call.params).toMatchObject({ redirects: 0 });
    expect(world.samples.filter(([name]) => name === "redirect")).toEqual([
      ["redirect", 1, { endpoint: "token", status: "308" }],
      ["redirect", 1, { endpoint: "events", status: "307" }],
    ]);
    expect(world.tokenRequests({ outcome: "failed", status: "308" })).toBe(1);
    expect(world.samples.filter(([name]) => name === "eventRejected").map(([, , tags]) => tags)).toEqual([
      { status: "no-token" },
      { status: "307" },
    ]);
    expect(world.samples.filter(([name]) => name === "eventFailed").map(([, v]) => v)).toEqual([true, true]);
  });

  it("sees a token accepted after idling over half of expires_in + margin (no early expiry), and not before", () => {
    const world = new World();
    const send = createVuClient(world.deps("sliding"));
    send(0, 0, true, false);
    vi.setSystemTime(START + EXPIRES_IN * 500 + MARGIN_MS - 1);
    send(1, 0, true, true);
    expect(world.count("expiry", "survived")).toBe(0);
    vi.setSystemTime(START + EXPIRES_IN * 1000 + 2 * MARGIN_MS - 1);
    send(2, 0, true, true);
    expect(world.count("expiry", "survived")).toBe(1);
    expect(world.count("expiry", "outlived")).toBe(0);
  });

  it("sees a token accepted expires_in + margin after its issue once (its lifetime slid with use), and its successor again", () => {
    const world = new World();
    const send = createVuClient(world.deps("sliding"));
    let now = START;
    for (let step = 0; step <= 5; step += 1) {
      vi.setSystemTime(now);
      send(step, 0, true, false);
      // Used every quarter of expires_in: 12.5 s after issue is past expires_in + margin (11 s).
      now += (EXPIRES_IN * 1000) / 4;
    }
    expect(world.count("expiry", "extended")).toBe(1);
    // A 401 replaces the token: the new one counts again once it is used past its own expires_in + margin.
    world.eventStatuses.push(401);
    vi.setSystemTime(now);
    send(6, 0, true, false);
    expect(world.count("expiry", "extended")).toBe(1);
    vi.setSystemTime(now + EXPIRES_IN * 1000 + MARGIN_MS - 1);
    send(7, 0, true, true);
    expect(world.count("expiry", "extended")).toBe(1);
    vi.setSystemTime(now + EXPIRES_IN * 1000 + MARGIN_MS);
    send(8, 0, true, true);
    expect(world.count("expiry", "extended")).toBe(2);
  });

  it("gives up after one retry, and names why an event was not accepted", () => {
    const world = new World();
    const send = createVuClient(world.deps("sliding"));
    world.eventStatuses.push(401, 401);
    expect(send(0, 0, true, false)).toBe(false);
    expect(world.samples.filter(([name]) => name === "eventRejected")).toEqual([
      ["eventRejected", 1, { status: "401" }],
    ]);
    world.eventStatuses.push(0);
    send(1, 0, true, false);
    world.tokenStatus = 401;
    world.eventStatuses.push(401);
    send(2, 0, true, false);
    expect(world.samples.filter(([name]) => name === "eventRejected").map(([, , tags]) => tags)).toEqual([
      { status: "401" },
      { status: "network" },
      { status: "no-token" },
    ]);
    expect(world.samples).toContainEqual([
      "tokenRequest",
      1,
      { reason: "rejected", outcome: "failed", status: "401" },
    ]);
    expect(world.tokenRequests({ outcome: "failed" })).toBe(1);
    // Two renewals after a 401, one refresh: the failed one replaced no token.
    expect(world.tokenRequests({ reason: "rejected" })).toBe(2);
    expect(world.derivedRefreshes()).toBe(1);
    expect(world.samples.filter(([name]) => name === "eventFailed").map(([, v]) => v)).toEqual([
      true,
      true,
      true,
    ]);
  });
});

describe("createVuClient agrees with token-policy.ts", () => {
  it.each(CLIENT_MODELS)(
    "%s: the same token requests, verdicts and samples as the rules applied one function each",
    (model) => {
      let failedRefreshRequests = 0;
      for (let seed = 1; seed <= 20; seed += 1) {
        const next = seededUniform(seed);
        const client = new World();
        const reference = new World();
        const send = createVuClient(client.deps(model));
        const counted = { refreshes: 0 };
        const expected = referenceClient(reference, model, counted);
        let now = START;
        for (let step = 0; step < 60; step += 1) {
          // Gaps from none to twice the lifetime; some events answered 401, 500 or not at all.
          const roll = next();
          now += Math.floor(next() * next() * 2 * EXPIRES_IN * 1000);
          const statuses =
            roll < 0.1 ? [401] : roll < 0.13 ? [401, 401] : roll < 0.16 ? [500] : roll < 0.18 ? [307] : [];
          if (roll > 0.97) statuses.push(0);
          const tokenRoll = next();
          const tokenStatus = tokenRoll < 0.05 ? 503 : tokenRoll < 0.07 ? 308 : 200;
          const probe = next() < 0.2;
          const newIteration = next() < 0.7;
          for (const world of [client, reference]) {
            world.eventStatuses.splice(0, world.eventStatuses.length, ...statuses);
            world.tokenStatus = tokenStatus;
          }
          vi.setSystemTime(now);
          const accepted = send(step, 0, newIteration, probe);
          vi.setSystemTime(now);
          expect(accepted, `seed ${seed} step ${step}`).toBe(expected(newIteration, probe));
        }
        expect(
          client.calls.map((c) => c.url),
          `seed ${seed}`,
        ).toEqual(reference.calls.map((c) => c.url));
        expect(client.samples, `seed ${seed}`).toEqual(reference.samples);
        // The reports' refreshes (issued idle, lifetime and rejected requests) are the former counter's exactly.
        expect(client.derivedRefreshes(), `seed ${seed}`).toBe(counted.refreshes);
        for (const reason of REFRESH_REASONS)
          failedRefreshRequests += client.tokenRequests({ reason, outcome: "failed" });
      }
      // Failed refresh requests occur, so the sum of refresh-reason requests alone would have overcounted: the
      // outcome tag is what makes the derived count exact.
      expect(failedRefreshRequests).toBeGreaterThan(0);
    },
  );
});
