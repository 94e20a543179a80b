import type { EventTemplate } from "./event-template.ts";
import type { TokenRequestReason } from "./token-policy.ts";
import { parseTokenResponse } from "./token-response.ts";
import type { VuSettings } from "./vu-settings.ts";

/**
 * The per-VU client: its token cache, its event bodies, and the submission of one event the way the configured
 * client would. Plain code (k6 is injected), so it is unit-tested in Node against token-policy.ts, which states the
 * same rules one function each.
 *
 * Why it is one closure with the rules inline: every function object a k6 VU holds costs it about 1 KB (Sobek
 * builds each one per VU), so the whole client holds two.
 */

/** What the client reads from a k6 response. */
export interface VuResponse {
  readonly status: number;
  readonly body?: unknown;
  readonly timings: { readonly duration: number };
}

/** The part of k6's `http` module the client uses. */
export interface VuHttp {
  post(url: string, body: string | Readonly<Record<string, string>>, params: object): VuResponse;
}

/** A client credential as the harness hands it to k6: the token endpoint's own form field names. */
export interface VuCredential {
  readonly client_id: string;
  readonly client_secret: string;
}

/** Sample adders, one per custom metric (k6's bound `Metric.add`). */
export interface MetricRecorders {
  /** token_requests, tagged `reason` and `outcome` (issued, or failed with the `status`): refreshes and failures too. */
  readonly tokenRequest: (value: number, tags: Readonly<Record<string, string>>) => unknown;
  /** token_expiries, tagged `kind`: unexpected, idle, outlived, extended or survived. */
  readonly expiry: (value: number, tags: Readonly<Record<string, string>>) => unknown;
  readonly eventRejected: (value: number, tags: Readonly<Record<string, string>>) => unknown;
  readonly eventFailed: (value: boolean) => unknown;
  /** redirects, tagged `endpoint` and `status`: a 3xx answer, never followed, a contract violation. */
  readonly redirect: (value: number, tags: Readonly<Record<string, string>>) => unknown;
}

export interface VuClientDeps {
  readonly settings: VuSettings;
  /** JSON list of credentials; parsed per token request, so a VU keeps no copy of the secrets. */
  readonly credentialsJson: string;
  /** JSON object of the token parameters `settings.tokenParamNames` names (values often secret), parsed likewise. */
  readonly tokenParamsJson: string | undefined;
  readonly http: VuHttp;
  /** The VU's number across every k6 instance (k6/execution's `vu.idInTest`), read once: not in the init context. */
  readonly vuIdInTest: () => number;
  /** The run's templates (a k6 SharedArray: every read parses a copy). */
  readonly templates: ArrayLike<EventTemplate>;
  readonly record: MetricRecorders;
  /**
   * k6/encoding's b64encode, for HTTP Basic client authentication; undefined for a client that posts its credentials.
   * k6's own functions, not wrappers: every function object a VU builds costs it about 1 KB.
   */
  readonly base64: ((text: string, variant: "std") => string) | undefined;
  /**
   * Caps this VU's response bodies at `bodyCapBytes` (k6/x/harness, in the harness's own k6; undefined in another
   * k6). Called before every token request: the cap needs the VU's state, which the init context lacks, and the first
   * token precedes every event; a second call changes nothing.
   */
  readonly capResponseBodies: ((maxBytes: number) => void) | undefined;
  readonly bodyCapBytes: number;
}

/**
 * Sends this iteration's `index`-th event; `newIteration` marks the iteration's first request, `probe` sends the
 * held token as it is (so the target's expiry can be observed). True when the event was accepted. With `index`
 * WARM_UP_INDEX it only gets the token the next event needs and sends nothing: true when one is held.
 */
export type SendEvent = (iteration: number, index: number, newIteration: boolean, probe: boolean) => boolean;

/** The `index` of a warm-up call: no event, only the token (scenario-plan.ts, WARM_UP_EXEC). */
export const WARM_UP_INDEX = -1;

/** A VU moves to its next template every 2^4 = 16 iterations: a SharedArray read parses a fresh copy. */
export const TEMPLATE_BLOCK_SHIFT = 4;

export const createVuClient = (deps: VuClientDeps): SendEvent => {
  // A VU keeps closure variables, not objects (nor `deps`): Go's collector marks every VU's heap on k6's one CPU.
  const {
    settings,
    http,
    templates,
    record,
    credentialsJson,
    tokenParamsJson,
    vuIdInTest,
    base64,
    capResponseBodies,
    bodyCapBytes,
  } = deps;
  const { clientModel, marginMs, eventsUrl, runId, timeoutMs } = settings;
  const { eventFailed } = record;
  const eventTags = { endpoint: "events" };

  // The held token (token-policy.ts HeldToken) as variables too: with hundreds of VUs taking turns, an event finds
  // its VU's memory out of the CPU's caches, so the fewer objects it reads, the cheaper it is.
  /**
   * Headers and tags for event requests, built once per token (undefined while none is held); the token lives only
   * here and on the wire.
   */
  let tokenParams: object | undefined;
  /** When the token response arrived. */
  let issuedAtMs = 0;
  /** expires_in in milliseconds: the lifetime counted from last use. */
  let lifetimeMs = 0;
  /** When the API last accepted the token (2xx), or the issue time before its first use: sliding expiry's origin. */
  let lastUseMs = 0;
  /** Counted in token_expiries{kind:extended} already: once per token. */
  let extended = false;
  let vu = 0;
  let template: EventTemplate | undefined;
  let templateBlock = -1;

  /** Fetches a new token, replacing the held one; failures are counted, never thrown, so the test goes on. */
  const renew = (reason: TokenRequestReason): void => {
    const credentials = JSON.parse(credentialsJson) as readonly VuCredential[];
    // VUs spread over the credentials round-robin.
    const credential = credentials[(vu - 1) % credentials.length] as VuCredential;
    const form: Record<string, string> = {
      ...(tokenParamsJson === undefined ? {} : (JSON.parse(tokenParamsJson) as Record<string, string>)),
      grant_type: "client_credentials",
    };
    if (settings.resource !== undefined) form.resource = settings.resource;
    if (settings.audience !== undefined) form.audience = settings.audience;
    if (settings.scope !== undefined) form.scope = settings.scope;
    const params: Record<string, unknown> = {
      tags: { endpoint: "token", name: "POST /oauth/token" },
      // Event responses are discarded (discardResponseBodies); only token responses are read.
      responseType: "text",
      // Milliseconds: a number spares k6 parsing a duration string on every request.
      timeout: timeoutMs,
      // A followed redirect would hand the client secret to whatever origin the Location names.
      redirects: 0,
    };
    if (settings.clientAuth === "basic") {
      if (base64 === undefined) throw new Error("HTTP Basic client authentication needs k6/encoding");
      // RFC 6749 Appendix B: client id and secret are form-urlencoded before they are joined for HTTP Basic.
      const formEncode = (value: string): string =>
        encodeURIComponent(value)
          .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
          .replace(/%20/g, "+");
      const pair = `${formEncode(credential.client_id)}:${formEncode(credential.client_secret)}`;
      params.headers = { Authorization: `Basic ${base64(pair, "std")}` };
    } else {
      form.client_id = credential.client_id;
      form.client_secret = credential.client_secret;
    }
    capResponseBodies?.(bodyCapBytes);
    const response = http.post(settings.tokenUrl, form, params);
    const receivedAtMs = Date.now();
    const parsed = parseTokenResponse(response.status, response.body);
    if (parsed === undefined) {
      const status = `${response.status}`;
      if (response.status >= 300 && response.status < 400) record.redirect(1, { endpoint: "token", status });
      record.tokenRequest(1, { reason, outcome: "failed", status });
      tokenParams = undefined;
      return;
    }
    // metric-names.ts tokenRefreshes: an issued idle, lifetime or rejected token always replaces a held one.
    record.tokenRequest(1, { reason, outcome: "issued" });
    issuedAtMs = lastUseMs = receivedAtMs;
    lifetimeMs = parsed.expiresInSeconds * 1000;
    extended = false;
    tokenParams = {
      headers: { Authorization: `Bearer ${parsed.accessToken}`, "Content-Type": "application/json" },
      tags: eventTags,
      timeout: timeoutMs,
      // A followed redirect would hand the bearer token to whatever origin the Location names.
      redirects: 0,
    };
  };

  return (iteration, index, newIteration, probe) => {
    if (vu === 0) vu = vuIdInTest();
    const nowMs = Date.now();

    // token-policy.ts: tokenRequestReason; a probe keeps the held token whatever the model says.
    let reason: TokenRequestReason | undefined;
    if (tokenParams === undefined) {
      reason = clientModel === "token-per-iteration" && newIteration ? "per-iteration" : "initial";
    } else if (!probe) {
      if (clientModel === "sliding") {
        const idle = nowMs - lastUseMs;
        if ((idle > 0 ? idle : 0) >= lifetimeMs - marginMs) reason = "idle";
      } else if (clientModel === "cache-until-expiry") {
        if (nowMs - issuedAtMs >= lifetimeMs - marginMs) reason = "lifetime";
      } else if (clientModel === "token-per-iteration" && newIteration) {
        reason = "per-iteration";
      }
    }
    if (reason !== undefined) renew(reason);
    if (index === WARM_UP_INDEX) return tokenParams !== undefined;

    const block = iteration >> TEMPLATE_BLOCK_SHIFT;
    let current = template;
    if (current === undefined || block !== templateBlock) {
      // VUs walk the templates from different offsets, so together they use them all.
      current = template = templates[(vu + block) % templates.length] as EventTemplate;
      templateBlock = block;
    }
    // event-template.ts: assembleEventBody(template, eventReference(runId, vu, iteration, index), date).
    const body = `${current[0]}${runId}-${vu}-${iteration}-${index}${current[1]}${new Date(nowMs).toISOString()}${current[2]}`;

    // The send, and on a 401 one new token and one retry; `rejection` names why the event was not accepted. A first
    // send without a token request before it is timed by the clock read above: building the body takes microseconds.
    let rejection: string | undefined;
    let sentAtMs = nowMs;
    for (let attempt = 0; rejection === undefined; attempt += 1) {
      if (tokenParams === undefined) {
        rejection = "no-token";
        break;
      }
      if (attempt > 0 || reason !== undefined) sentAtMs = Date.now();
      const status = http.post(eventsUrl, body, tokenParams).status;
      if (status >= 200 && status < 300) break;
      if (status !== 401) {
        rejection = status === 0 ? "network" : `${status}`;
        if (status >= 300 && status < 400) record.redirect(1, { endpoint: "events", status: rejection });
        break;
      }
      // token-policy.ts: classifyRejection. Rejected although used less than expires_in − margin ago: a violation.
      // metric-names.ts EXPIRY: the kinds of token_expiries.
      const idle = sentAtMs - lastUseMs;
      record.expiry(1, { kind: (idle > 0 ? idle : 0) < lifetimeMs - marginMs ? "unexpected" : "idle" });
      if (attempt === 1) rejection = "401";
      else renew("rejected");
    }
    if (rejection !== undefined) {
      eventFailed(true);
      record.eventRejected(1, { status: rejection });
      return false;
    }
    // token-policy.ts: outlivedIdle (a violation), survivedIdle and extendedPastIssue (the rule seen to hold).
    const idle = sentAtMs - lastUseMs;
    if ((idle > 0 ? idle : 0) >= lifetimeMs + marginMs) record.expiry(1, { kind: "outlived" });
    else if (idle >= lifetimeMs / 2 + marginMs) record.expiry(1, { kind: "survived" });
    if (!extended && sentAtMs - issuedAtMs >= lifetimeMs + marginMs) {
      extended = true;
      record.expiry(1, { kind: "extended" });
    }
    lastUseMs = sentAtMs;
    // The only sample of an accepted event: events_failed's false samples count the accepted events.
    eventFailed(false);
    return true;
  };
};
