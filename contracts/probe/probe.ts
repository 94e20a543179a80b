import { setTimeout as sleep } from "node:timers/promises";
import {
  PrerequisiteError,
  RedirectAnswerError,
  ServerFailureError,
  TransportError,
  UndecidableError,
} from "../../core/index.ts";
import type { CheckoutEvent, EventStrictness } from "../../domain/index.ts";
import { isLifetime } from "../../domain/index.ts";
import { describeRedirect, isRedirect } from "../../transport/connection/index.ts";
import { timerDelay } from "../../transport/deadline/index.ts";
import type { ClientAuth, Redactor, Target } from "../../transport/index.ts";
import { eventsUrl, targetTokenFields, tokenRequestParts } from "../../transport/index.ts";
import type { Counterexample } from "../checks/counterexample.ts";
import { describeResponse } from "../checks/describe.ts";
import type { Exploration } from "../checks/exploration.ts";
import type { FuzzSettings, InputSpace } from "../checks/input-space.ts";
import type { Evidence } from "./evidence.ts";
import { evidenceOf } from "./evidence.ts";
import type { HttpRequest, HttpResponse } from "./http-request.ts";
import { isServerError, jsonRequest } from "./http-request.ts";
import { send } from "./send.ts";
import type { UnansweredEndpoints } from "./unanswered-endpoints.ts";

/** An access token the target issued, with the lifetime it announced. */
export interface IssuedToken {
  readonly accessToken: string;
  /** `expires_in` as the target sent it, when it is a positive whole number. */
  readonly expiresIn: number | undefined;
  readonly body: Readonly<Record<string, unknown>>;
  readonly response: HttpResponse;
}

/** A token lifetime learnt before the checks start: the preflight's token, or the embedded sandbox's setting. */
export interface KnownLifetime {
  readonly expiresIn: number;
  /** Whose expires_in it is, for a message: "the embedded sandbox's setting". */
  readonly source: string;
}

/** One way to break a valid event; the caller hands them in (the suite takes generators/' invalid variants). */
export interface EventBreaker {
  readonly name: string;
  /** The loosest strictness whose schema rejects the broken event. */
  readonly violates: EventStrictness;
  /** A new body made from `event`; the event itself is never modified. */
  apply(event: CheckoutEvent): unknown;
}

export interface ProbeOptions {
  readonly target: Target;
  readonly redactor: Redactor;
  /** The next valid event to send: a fresh, unique one each call. */
  readonly nextEvent: () => Record<string, unknown>;
  /** Every way the caller can break a valid event, for the checks that send invalid ones. */
  readonly eventBreakers: readonly EventBreaker[];
  /** Live progress for long checks. */
  readonly progress?: (message: string) => void;
  /** The run's deadline: when it aborts, every exchange and wait of the check ends (TransportError). */
  readonly signal?: AbortSignal;
  /** Endpoints that stopped answering, shared by every check of a run. */
  readonly unanswered?: UnansweredEndpoints;
  /**
   * Asks the run for time until `at` (epoch ms), for a probe that must wait that long; says why not when the run
   * cannot last even until `needed`.
   */
  readonly reserveUntil?: (at: number, needed: number) => string | undefined;
  /** The expires_in known before the checks start, and whose it is: sliding-expiry probes fit the deadline to it. */
  readonly knownLifetime?: KnownLifetime;
  /** The inputs the property-based checks draw from; without them those checks SKIP. */
  readonly inputSpace?: InputSpace;
  /** How many inputs the property-based checks draw, for how long, from which seed. */
  readonly fuzz?: FuzzSettings;
}

export interface ExchangeOptions {
  /**
   * "fail" (default): a 5xx throws ServerFailureError, a MUST failure whatever the check. "report": the check judges
   * the 5xx itself (it does so at MUST level, or the endpoint is an optional capability).
   */
  readonly serverErrors?: "fail" | "report";
}

/** Credentials a token response may carry (RFC 6749 §5.1, OpenID Connect's id_token), each hidden in evidence. */
const ISSUED_TOKENS = [
  ["access_token", "<ACCESS_TOKEN>"],
  ["refresh_token", "<REFRESH_TOKEN>"],
  ["id_token", "<ID_TOKEN>"],
] as const;

/** The MUST rule a 5xx from this request breaks: every request of the contract is answered, never failed on. */
function serverErrorRule(target: Target, request: HttpRequest): string {
  return request.url === target.tokenUrl ? "Endpoints §1; RFC 9110 §15.6" : "Endpoints §2; RFC 9110 §15.6";
}

/** The MUST rule a 3xx breaks: the endpoint is at the configured URL, and credentials go nowhere else. */
function redirectRule(target: Target, request: HttpRequest): string {
  return `${request.url === target.tokenUrl ? "Endpoints §1" : "Endpoints §2"}; Authentication rule 2`;
}

/** What a check talks to the target through: every exchange is recorded as redacted evidence. */
export class Probe {
  readonly evidence: Evidence[] = [];
  readonly target: Target;
  readonly redactor: Redactor;
  readonly #nextEvent: () => Record<string, unknown>;
  readonly eventBreakers: readonly EventBreaker[];
  readonly #progress: (message: string) => void;
  readonly #signal: AbortSignal | undefined;
  readonly #unanswered: UnansweredEndpoints | undefined;
  readonly #reserveUntil: (at: number, needed: number) => string | undefined;
  readonly #options: ProbeOptions;
  readonly inputSpace: InputSpace | undefined;
  readonly fuzz: FuzzSettings | undefined;
  readonly knownLifetime: KnownLifetime | undefined;
  /** Set by a property-based check that failed: the minimal input, the seed and the path that replay it. */
  counterexample: Counterexample | undefined;
  /** Set by a property-based check: what it explored, class by class. */
  exploration: Exploration | undefined;

  constructor(options: ProbeOptions) {
    this.#options = options;
    this.inputSpace = options.inputSpace;
    this.fuzz = options.fuzz;
    this.knownLifetime = options.knownLifetime;
    this.target = options.target;
    this.redactor = options.redactor;
    this.#nextEvent = options.nextEvent;
    this.eventBreakers = options.eventBreakers;
    this.#progress = options.progress ?? (() => {});
    this.#signal = options.signal;
    this.#unanswered = options.unanswered;
    this.#reserveUntil = options.reserveUntil ?? (() => undefined);
  }

  /**
   * The same probe with an evidence record of its own: a property-based check sends hundreds of inputs and keeps as
   * evidence only the exchange that proves its verdict.
   */
  scratch(): Probe {
    return new Probe(this.#options);
  }

  /** Waits `ms`, or throws TransportError when the run's deadline passes first. */
  async sleep(ms: number, what: string): Promise<void> {
    try {
      await sleep(timerDelay(ms), undefined, this.#signal ? { signal: this.#signal } : {});
    } catch {
      const reason = this.#signal?.reason;
      throw new TransportError(
        `${reason instanceof Error ? reason.message : "the run was stopped"} while ${what}`,
        "DEADLINE",
      );
    }
  }

  /**
   * Asks the run's deadline for room until `at` (epoch ms): a sliding-expiry probe knows how long it must wait.
   * Returns why the run cannot last until `needed` (the probe's bare minimum), or undefined when it can.
   */
  reserveUntil(at: number, needed: number = at): string | undefined {
    return this.#reserveUntil(at, needed);
  }

  progress(message: string): void {
    this.#progress(message);
  }

  newEvent(): Record<string, unknown> {
    return this.#nextEvent();
  }

  /**
   * Sends a request and records it. A transport failure is recorded, then rethrown as TransportError; a 3xx is
   * recorded, never followed, and thrown as RedirectAnswerError; a 5xx is recorded, then thrown as ServerFailureError unless
   * `serverErrors` is "report".
   */
  async exchange(label: string, request: HttpRequest, options: ExchangeOptions = {}): Promise<HttpResponse> {
    let response: HttpResponse;
    try {
      if (this.#signal?.aborted) {
        const reason = this.#signal.reason;
        throw new TransportError(
          `not sent: ${reason instanceof Error ? reason.message : "the run was stopped"}`,
          "DEADLINE",
        );
      }
      const refusal = this.#unanswered?.refusal(request, this.target.timeoutMs);
      if (refusal !== undefined) throw new TransportError(refusal, "UNANSWERED");
      response = await send(request, this.target.timeoutMs, this.target.connection, this.#signal);
      this.#unanswered?.record(request, true);
    } catch (error) {
      if (error instanceof TransportError && error.reason === "TIMEOUT")
        this.#unanswered?.record(request, false);
      const message = error instanceof Error ? error.message : String(error);
      this.evidence.push(evidenceOf(this.redactor, label, request, { error: message }));
      throw error instanceof TransportError ? error : new TransportError(message, "UNKNOWN");
    }
    this.#hideIssuedTokens(label, request, response);
    this.evidence.push(evidenceOf(this.redactor, label, request, { response }));
    if (isRedirect(response.status)) {
      const said = describeRedirect(response.status, response.headers.location, request.url);
      throw new RedirectAnswerError(`"${label}" was answered ${said}`, redirectRule(this.target, request));
    }
    if (isServerError(response.status) && options.serverErrors !== "report") {
      const said = describeResponse(response, this.redactor);
      throw new ServerFailureError(
        `the server failed on "${label}": ${said}; a 5xx is never an answer the contract allows`,
        serverErrorRule(this.target, request),
      );
    }
    return response;
  }

  /** A value the target sent, for a message: inert and redacted (a string as it is, anything else as JSON). */
  quote(value: unknown): string {
    return this.redactor.untrusted(
      typeof value === "string" ? value : (JSON.stringify(value) ?? String(value)),
    );
  }

  /**
   * Any token in a response is registered before evidence is written, opaque tokens included. One the redactor
   * cannot hide (too long) ends the exchange as UndecidableError, its answer recorded without a word of it.
   */
  #hideIssuedTokens(label: string, request: HttpRequest, response: HttpResponse): void {
    const body = response.json;
    if (typeof body !== "object" || body === null) return;
    const record = body as Record<string, unknown>;
    for (const [field, placeholder] of ISSUED_TOKENS) {
      const token = record[field];
      if (typeof token !== "string") continue;
      const refusal = this.redactor.tokenRefusal(token);
      if (refusal !== undefined) {
        const why = `the ${field} it carries ${refusal}`;
        this.evidence.push(
          evidenceOf(this.redactor, label, request, {
            error: `answered ${response.status}, not shown: ${why}`,
          }),
        );
        throw new UndecidableError(
          `"${label}" was answered ${response.status}, but ${why}; none of it is shown`,
        );
      }
      this.redactor.addToken(token, placeholder);
    }
  }

  /**
   * The spec's token request (Endpoints §1), with fields overridden or removed (`undefined`) for negative probes.
   * The client authenticates as configured (`clientAuth`, unless `as` says otherwise): `basic` carries client_id
   * and client_secret, overridden ones included, in the Authorization header instead of the form.
   */
  tokenRequest(
    overrides: Readonly<Record<string, string | undefined>> = {},
    as: ClientAuth = this.target.clientAuth,
  ): HttpRequest {
    const { headers, body } = tokenRequestParts(as, { ...targetTokenFields(this.target), ...overrides });
    return { method: "POST", url: this.target.tokenUrl, headers, body };
  }

  /**
   * RFC 7662's question about `token` to the issuer's introspection endpoint, the client authenticating as at the
   * token endpoint; undefined when the target has no such endpoint (only `--issuer` metadata names one).
   */
  introspectionRequest(token: string): HttpRequest | undefined {
    const endpoint = this.target.introspectionEndpoint;
    if (endpoint === undefined) return undefined;
    const { headers, body } = tokenRequestParts(this.target.clientAuth, {
      client_id: this.target.clientId,
      client_secret: this.target.clientSecret.reveal(),
      token,
      token_type_hint: "access_token",
    });
    return { method: "POST", url: endpoint, headers, body };
  }

  /** Obtains a token with the configured credentials, or throws PrerequisiteError saying why not. */
  async obtainToken(label = "obtain an access token"): Promise<IssuedToken> {
    const response = await this.exchange(label, this.tokenRequest());
    const body = response.json;
    const accessToken =
      typeof body === "object" && body !== null ? (body as Record<string, unknown>).access_token : undefined;
    if (response.status !== 200 || typeof accessToken !== "string" || accessToken === "") {
      throw new PrerequisiteError(
        `needs an access token, but the token endpoint answered ${response.status} without one (see token.issued)`,
      );
    }
    const record = body as Record<string, unknown>;
    const expiresIn = record.expires_in;
    return {
      accessToken,
      expiresIn: isLifetime(expiresIn) ? expiresIn : undefined,
      body: record,
      response,
    };
  }

  /** `POST {base_url}/events` with the given Authorization header value (none when undefined). */
  eventRequest(authorization: string | undefined, event: unknown = this.newEvent()): HttpRequest {
    return jsonRequest(eventsUrl(this.target), event, authorization === undefined ? {} : { authorization });
  }

  postEvent(label: string, token: string | undefined, event?: unknown): Promise<HttpResponse> {
    return this.exchange(
      label,
      this.eventRequest(token === undefined ? undefined : `Bearer ${token}`, event),
    );
  }
}
