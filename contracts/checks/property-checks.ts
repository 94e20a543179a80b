import { formatDuration, PrerequisiteError, ServerFailureError, UndecidableError } from "../../core/index.ts";
import { eventsUrl } from "../../transport/index.ts";
import type { HttpRequest, HttpResponse } from "../probe/http-request.ts";
import { isServerError, isSuccess } from "../probe/http-request.ts";
import { ownCopy } from "../probe/own-copy.ts";
import type { Probe } from "../probe/probe.ts";
import type { CheckArea, CheckDefinition, CheckLevel, Finding } from "./check.ts";
import { broken, defineCheck, holds, skipped } from "./check.ts";
import { accessTokenOf, describeResponse } from "./describe.ts";
import type { EventInputLike, FuzzSettings, InputSpace, TokenFormInputLike } from "./input-space.ts";
import { premiseAcceptedEvent, premiseToken } from "./premise.ts";
import type { Judgement, PropertyDefinition, PropertyOutcome, Shown } from "./property-run.ts";
import { MAX_RETRY_AFTER_MS, MAX_SHRINK_STEPS, propertySeed, runProperty } from "./property-run.ts";
import { describeRefusal, REJECTED_CONTENT } from "./refusal.ts";

/** What a property-based check reserves of the run past its search and shrinking: its premises and last answers. */
const RESERVE_SLACK_MS = 10_000;
/** The exchanges one input may take: the input, and after a 401 a token and the input again. */
const IN_FLIGHT_EXCHANGES = 3;
/** How much of a minimal input a message quotes; the counterexample and the evidence carry all of it. */
const MESSAGE_INPUT_CHARS = 300;
/** How much of a minimal input the counterexample keeps: a deep-nesting probe is a few kilobytes. */
const COUNTEREXAMPLE_CHARS = 8_000;

/** A property-based check: which inputs it draws, what each must get, and how that is said. */
interface PropertyCheck<T> {
  readonly id: string;
  readonly title: string;
  readonly area: CheckArea;
  readonly level: CheckLevel;
  readonly rule: string;
  /** "valid events accepted", for "200 valid events accepted". */
  readonly held: string;
  /** What every input must get, for a failure's message: "expected a 2xx for every valid event". */
  readonly expected: string;
  /** Sets up the run (a token, the premises) and returns the inputs and how to judge each. */
  prepare(probe: Probe, space: InputSpace): Promise<Omit<PropertyDefinition<T>, "checkId">>;
}

/** Without a Retry-After, a 429 is waited out this long before the next input. */
const DEFAULT_RETRY_AFTER_MS = 250;

/** The Retry-After (seconds) of a 429 in ms, honoured up to MAX_RETRY_AFTER_MS, so the next input is not refused too. */
function retryAfterMs(response: HttpResponse): number {
  const header = response.headers["retry-after"];
  const seconds = header === undefined || header.trim() === "" ? Number.NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0
    ? Math.min(seconds * 1000, MAX_RETRY_AFTER_MS)
    : DEFAULT_RETRY_AFTER_MS;
}

/** A 429 judges nothing: the target is rate-limiting; wait as it asks (within bounds) and move on. */
async function rateLimited(probe: Probe, response: HttpResponse): Promise<Judgement | undefined> {
  if (response.status !== 429) return undefined;
  await probe.sleep(retryAfterMs(response), "waiting out a 429");
  return { verdict: "not-judged", why: "the target answered 429 (too many requests)" };
}

function serverError(probe: Probe, response: HttpResponse): Judgement | undefined {
  if (!isServerError(response.status)) return undefined;
  return {
    verdict: "broken",
    said: `received ${describeResponse(response, probe.redactor)}`,
    serverError: true,
  };
}

/** The valid token the inputs go out with, renewed once when the target says it expired. */
class TokenKeeper {
  #token: string;
  constructor(
    private readonly probe: Probe,
    token: string,
  ) {
    this.#token = token;
  }
  get token(): string {
    return this.#token;
  }
  async renew(): Promise<string> {
    this.#token = (await this.probe.obtainToken("renew the access token the inputs go out with")).accessToken;
    return this.#token;
  }
}

/** An input as a report shows it: what it is, its media type and body (never its credentials). */
function showRequest(what: string, request: HttpRequest): Shown {
  return { what, contentType: request.headers["content-type"], body: request.body ?? "" };
}

/**
 * Every input's reference gets a stem of its own: the run's id (hashed to seven characters), the check's letter and
 * a count, all of fixed width, so a replay sends references of the same length. The letter keeps one check's
 * references apart from another's: a target that stored one check's input would answer the next check's 409.
 */
function stems(settings: FuzzSettings, letter: string): () => string {
  const run = (propertySeed(0, settings.runId) >>> 0).toString(36).padStart(7, "0");
  let count = 0;
  return () => `eah-fz-${run}-${letter}${(count++).toString(36).padStart(5, "0")}-`;
}

/** The letters event checks' stems carry, one per check. */
const STEM_LETTERS = new Map<string, string>();

/**
 * Sends one event input with the kept token; a 401 renews the token and sends it again once. The scratch probe
 * records the exchange; a 5xx is returned for the check to judge.
 */
async function sendEvent(
  probe: Probe,
  keeper: TokenKeeper,
  input: EventInputLike,
  stem: string,
  slot: string,
  shown: (input: Shown) => void,
): Promise<HttpResponse> {
  const body = input.body.replaceAll(slot, stem);
  const request = (token: string): HttpRequest => ({
    method: "POST",
    url: eventsUrl(probe.target),
    headers: {
      ...(input.contentType === undefined ? {} : { "content-type": input.contentType }),
      authorization: `Bearer ${token}`,
    },
    body,
  });
  shown(showRequest(input.what, request("<ACCESS_TOKEN>")));
  const label = `send ${input.what}`;
  const first = await probe.exchange(label, request(keeper.token), { serverErrors: "report" });
  if (first.status !== 401) return first;
  const again = await probe.exchange(`${label} (with a renewed token)`, request(await keeper.renew()), {
    serverErrors: "report",
  });
  if (again.status === 401)
    throw new UndecidableError(
      "the events endpoint refused a freshly issued token while inputs were being sent",
    );
  return again;
}

/** The event checks' common set-up: a token and a valid event accepted with it, so refusals prove something. */
function eventProperty(
  judge: (response: HttpResponse, probe: Probe) => Judgement,
  pick: (space: InputSpace) => PropertyDefinition<EventInputLike>["arbitrary"],
  letter: string,
) {
  return async (probe: Probe, space: InputSpace, settings: FuzzSettings) => {
    const accessToken = await premiseToken(probe);
    await premiseAcceptedEvent(probe, accessToken);
    const keeper = new TokenKeeper(probe, accessToken);
    const nextStem = stems(settings, letter);
    return {
      arbitrary: pick(space),
      async judge(input: EventInputLike, scratch: Probe, shown: (input: Shown) => void): Promise<Judgement> {
        const response = await sendEvent(scratch, keeper, input, nextStem(), space.referenceSlot, shown);
        return (
          (await rateLimited(scratch, response)) ?? serverError(scratch, response) ?? judge(response, scratch)
        );
      },
    };
  };
}

const accepted = (response: HttpResponse, probe: Probe): Judgement =>
  isSuccess(response.status)
    ? { verdict: "holds" }
    : {
        verdict: "broken",
        said: `received ${describeResponse(response, probe.redactor)}`,
        serverError: false,
      };

const refused = (response: HttpResponse, probe: Probe): Judgement =>
  REJECTED_CONTENT.statuses.includes(response.status)
    ? { verdict: "holds" }
    : {
        verdict: "broken",
        said: `${isSuccess(response.status) ? "accepted it: " : ""}received ${describeResponse(response, probe.redactor)}`,
        serverError: false,
      };

const noServerError = (): Judgement => ({ verdict: "holds" });

/** How a property's outcome reads, and what it leaves for the reports. */
function findingOf(
  probe: Probe,
  settings: FuzzSettings,
  check: { readonly id: string; readonly held: string; readonly expected: string; readonly rule: string },
  outcome: PropertyOutcome,
): Finding {
  const seed = `seed ${settings.seed}`;
  const notJudged =
    outcome.kind !== "nothing-sent" && outcome.notJudged > 0
      ? `; ${outcome.notJudged} answer${outcome.notJudged === 1 ? " was" : "s were"} 429 and judged nothing`
      : "";
  if (outcome.kind === "nothing-sent") return skipped(`no input sent: ${outcome.why}`);
  if (outcome.kind === "held") {
    const cut =
      outcome.replayed !== undefined
        ? `; replayed from path ${outcome.replayed}`
        : outcome.interrupted
          ? `; the time limit of ${formatDuration(settings.timeLimitMs)} ended the search after ${outcome.judged} of ${settings.runs}`
          : "";
    return holds(`${outcome.judged} ${check.held} (${seed}${cut}${notJudged})`);
  }
  const { what, contentType, body } = outcome.shown;
  const quoted = probe.quote(body);
  // The run's --fuzz-runs too: a replay's path is checked against the inputs a search of that many can draw.
  const replay = `--seed ${settings.seed} --only ${check.id} --fuzz-runs ${settings.runs} --fuzz-replay ${outcome.path}`;
  probe.counterexample = {
    what: probe.quote(what),
    contentType: contentType === undefined ? null : probe.quote(contentType),
    input:
      quoted.length > COUNTEREXAMPLE_CHARS
        ? `${ownCopy(quoted.slice(0, COUNTEREXAMPLE_CHARS))}… (${body.length} chars)`
        : quoted,
    seed: settings.seed,
    path: outcome.path,
    shrinks: outcome.shrinks,
    foundAt: { input: outcome.run, afterMs: outcome.foundAfterMs, shrinkMs: outcome.shrinkMs },
    replay,
  };
  if (outcome.evidence !== undefined) probe.evidence.push(outcome.evidence);
  const shrinking = !outcome.reproduced
    ? " (not shrunk: the same input did not fail when sent again; a flaky target?)"
    : outcome.shrinkCapped
      ? ` (shrunk ${outcome.shrinks} times, then stopped at the ${MAX_SHRINK_STEPS} shrink steps a check takes at most)`
      : outcome.shrinkInterrupted
        ? ` (shrunk ${outcome.shrinks} times, then the time limit stopped; replay the path to shrink on)`
        : outcome.shrinks > 0
          ? ` (shrunk ${outcome.shrinks} times from input ${outcome.run})`
          : ` (input ${outcome.run}, already minimal)`;
  const message =
    `${check.expected}, ${outcome.judgement.said} for ${what}; minimal input${shrinking}: ` +
    `${quoted.length > MESSAGE_INPUT_CHARS ? `${ownCopy(quoted.slice(0, MESSAGE_INPUT_CHARS))}… (${body.length} chars)` : quoted}` +
    `${contentType === "application/json" ? "" : ` sent as ${contentType === undefined ? "no Content-Type" : probe.quote(contentType)}`}` +
    `; ${seed}, path ${outcome.path}; replay with ${replay}${notJudged}`;
  // A 5xx is a MUST failure whatever the check's level, reported under the rule it broke.
  if (outcome.judgement.serverError) throw new ServerFailureError(message, check.rule);
  return broken(message);
}

function defineProperty<T>(check: PropertyCheck<T>): CheckDefinition {
  return defineCheck({
    id: check.id,
    title: check.title,
    area: check.area,
    level: check.level,
    rule: check.rule,
    profile: "fast",
    async run(probe) {
      const { inputSpace: space, fuzz: settings } = probe;
      if (space === undefined || settings === undefined)
        return skipped("no input sent: the run gave this check no input space to draw from");
      // Room for the search and, after a failure, the shrinking, each with the input in flight at its limit: a
      // deadline the user did not fix stretches.
      const now = Date.now();
      const inFlightMs = IN_FLIGHT_EXCHANGES * probe.target.timeoutMs + MAX_RETRY_AFTER_MS;
      probe.reserveUntil(
        now + settings.timeLimitMs + settings.shrinkLimitMs + 2 * inFlightMs + RESERVE_SLACK_MS,
        now,
      );
      const definition = await check.prepare(probe, space);
      const outcome = await runProperty(probe, settings, { checkId: check.id, ...definition });
      return findingOf(probe, settings, check, outcome);
    },
  });
}

/** The event property checks share their set-up; this binds it to the run's settings and the check's id. */
function eventCheck(
  base: Omit<PropertyCheck<EventInputLike>, "prepare" | "area">,
  judge: (response: HttpResponse, probe: Probe) => Judgement,
  pick: (space: InputSpace) => PropertyDefinition<EventInputLike>["arbitrary"],
): CheckDefinition {
  const letter = base.id.slice(base.id.indexOf(".") + 1, base.id.indexOf(".") + 2);
  const taken = [...STEM_LETTERS].find(([, used]) => used === letter);
  if (taken !== undefined)
    throw new Error(`${base.id} and ${taken[0]} would share the reference stem letter ${letter}`);
  STEM_LETTERS.set(base.id, letter);
  const prepare = eventProperty(judge, pick, letter);
  return defineProperty<EventInputLike>({
    ...base,
    area: "inputs",
    prepare: (probe, space) => prepare(probe, space, probe.fuzz as FuzzSettings),
  });
}

export const inputsValidAccepted = eventCheck(
  {
    id: "inputs.valid-accepted",
    title:
      "Valid events from the whole space the spec allows are accepted (property-based: + and non-ASCII addresses, long references with quotes, emoji, boundary dates)",
    level: "MUST",
    rule: "Endpoints §2; Resources: Event (every documented field, in its documented form)",
    held: "valid events accepted",
    expected: "expected a 2xx for every valid event",
  },
  accepted,
  (space) => space.valid,
);

export const inputsNoServerError = eventCheck(
  {
    id: "inputs.no-server-error",
    title:
      "No input the spec is silent on, and no body that is not a JSON event, makes the server fail (property-based: unknown properties, huge numbers, deep nesting, repeated keys, media types)",
    level: "MUST",
    rule: "Endpoints §2; RFC 9110 §15.6",
    held: "inputs answered without a 5xx",
    expected: "expected no 5xx",
  },
  noServerError,
  (space) => space.silent,
);

export const inputsTypesEnforced = eventCheck(
  {
    id: "inputs.types-enforced",
    title:
      "An event with a documented field of the wrong JSON type is refused (property-based: numbers, null, arrays and objects where the spec says string or object)",
    level: "MUST",
    rule: "Resources: Event (each field's type); RFC 9110 §15.5",
    held: "events with a field of the wrong type refused",
    expected: `expected a refusal, ${describeRefusal(REJECTED_CONTENT)}`,
  },
  refused,
  (space) => space.types,
);

export const inputsDatesEnforced = eventCheck(
  {
    id: "inputs.dates-enforced",
    title:
      "A transaction.date that is not ISO 8601 with milliseconds and a UTC designator is refused (property-based: no milliseconds, offsets, date only, impossible days)",
    level: "MUST",
    rule: "Resources: Event, transaction.date (ISO 8601 with milliseconds and a UTC designator); RFC 9110 §15.5",
    held: "events with a malformed date refused",
    expected: `expected a refusal, ${describeRefusal(REJECTED_CONTENT)}`,
  },
  refused,
  (space) => space.dates,
);

/** RFC 6749 §5.2: a refused token request is 400 (invalid_request …) or 401 (invalid_client). */
const TOKEN_REFUSAL = [400, 401];

function judgeTokenForm(input: TokenFormInputLike, response: HttpResponse, probe: Probe): Judgement {
  const said = `received ${describeResponse(response, probe.redactor)}`;
  if (input.expect === "token") {
    return response.status === 200 && accessTokenOf(response) !== undefined
      ? { verdict: "holds" }
      : { verdict: "broken", said: `expected a token, ${said}`, serverError: false };
  }
  return TOKEN_REFUSAL.includes(response.status)
    ? { verdict: "holds" }
    : {
        verdict: "broken",
        said: `expected a refusal, 400 or 401 (RFC 6749 §5.2), ${response.status === 200 ? "got a token: " : ""}${said}`,
        serverError: false,
      };
}

export const inputsTokenForm = defineProperty<TokenFormInputLike>({
  id: "inputs.token-form",
  title:
    "Token requests with unknown, empty or repeated parameters, or other encodings of the same form, are answered as RFC 6749 says (property-based)",
  area: "inputs",
  level: "SHOULD",
  rule: "RFC 6749 §3.1 (empty is omitted), §3.2 (unknown ignored, none repeated), §5.2",
  held: "token requests answered as RFC 6749 says",
  expected: "expected the answer RFC 6749 gives",
  async prepare(probe, space) {
    const base = probe.tokenRequest();
    if (base.body === undefined) throw new PrerequisiteError("the token request has no form body to vary");
    await premiseToken(probe);
    const fields = [...new URLSearchParams(base.body)];
    return {
      arbitrary: space.tokenForms(fields, new Set(["client_secret"])),
      async judge(input, scratch, shown) {
        const request: HttpRequest = {
          ...base,
          headers: { ...base.headers, "content-type": input.contentType },
          body: input.body,
        };
        shown(showRequest(input.what, request));
        const response = await scratch.exchange(`request a token with ${input.what}`, request, {
          serverErrors: "report",
        });
        return (
          (await rateLimited(scratch, response)) ??
          serverError(scratch, response) ??
          judgeTokenForm(input, response, scratch)
        );
      },
    };
  },
});

/**
 * The property-based stage (area `inputs`), in the order it runs: events from valid to malformed, then the token
 * form. It runs after the other fast checks, so its seconds of inputs never delay them.
 */
export const PROPERTY_CHECKS: readonly CheckDefinition[] = [
  inputsValidAccepted,
  inputsNoServerError,
  inputsTypesEnforced,
  inputsDatesEnforced,
  inputsTokenForm,
];

/** The ids of the property-based checks: the stage `--fuzz-*` options apply to. */
export const PROPERTY_CHECK_IDS: readonly string[] = PROPERTY_CHECKS.map((check) => check.id);
