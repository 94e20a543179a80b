import { formatDuration, PrerequisiteError, ServerFailureError, UndecidableError } from "../../core/index.ts";
import type { ClientAuth } from "../../transport/index.ts";
import { eventsUrl, inertText } from "../../transport/index.ts";
import type { HttpRequest, HttpResponse } from "../probe/http-request.ts";
import { isServerError, isSuccess } from "../probe/http-request.ts";
import { ownCopy } from "../probe/own-copy.ts";
import type { Probe } from "../probe/probe.ts";
import type { CheckArea, CheckDefinition, CheckLevel, Finding } from "./check.ts";
import { broken, defineCheck, holds, skipped } from "./check.ts";
import type { ClassFailure, ExploreDefinition, ExploreOutcome } from "./class-search.ts";
import { exploreClasses } from "./class-search.ts";
import { accessTokenOf, describeResponse } from "./describe.ts";
import type {
  EventInputLike,
  FuzzSettings,
  InputClassLike,
  InputExpectation,
  InputSpace,
  TokenFormInputLike,
  TokenRequestShapeLike,
} from "./input-space.ts";
import { premiseAcceptedEvent, premiseToken } from "./premise.ts";
import type { Judgement, Shown } from "./property-run.ts";
import { MAX_RETRY_AFTER_MS, MAX_SHRINK_STEPS, propertySeed } from "./property-run.ts";
import { describeRefusal, REJECTED_CONTENT } from "./refusal.ts";

/** What a property-based check reserves of the run past its search and shrinking: its premises and last answers. */
const RESERVE_SLACK_MS = 10_000;
/** The exchanges one input may take: the input, and after a 401 a token and the input again. */
const IN_FLIGHT_EXCHANGES = 3;
/** How much of a minimal input a message quotes; the counterexample and the evidence carry all of it. */
const MESSAGE_INPUT_CHARS = 300;
/** How much of a minimal input the counterexample keeps: a deep-nesting probe is a few kilobytes. */
const COUNTEREXAMPLE_CHARS = 8_000;

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
    said: `expected no 5xx, received ${describeResponse(response, probe.redactor)}`,
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

/** A property-based check: the classes it explores against a target, and what a broken class means. */
interface ClassCheck<T> {
  readonly id: string;
  readonly title: string;
  readonly area: CheckArea;
  readonly level: CheckLevel;
  readonly rule: string;
  /** "e-mail addresses", for "412 e-mail addresses over 11 classes answered as their class requires". */
  readonly inputs: string;
  /** Sets up the run (a token, the premises) and returns the classes and how to judge an input of each. */
  prepare(
    probe: Probe,
    space: InputSpace,
    settings: FuzzSettings,
  ): Promise<Omit<ExploreDefinition<T>, "checkId">>;
}

/** The references of each event check's inputs carry its own letter, so one check's stored inputs never meet another's. */
const STEM_LETTERS = new Map<string, string>();

/**
 * Sends one event input with the kept token, in the envelope the input asks for; a 401 renews the token and sends
 * it again once (unless the input varies the Authorization header itself: then the 401 is its answer). The scratch
 * probe records the exchange; a 5xx is returned for the check to judge.
 */
async function sendEvent(
  probe: Probe,
  keeper: TokenKeeper,
  input: EventInputLike,
  stem: string,
  space: InputSpace,
  shown: (input: Shown) => void,
): Promise<HttpResponse> {
  const body = input.body.replaceAll(space.referenceSlot, stem);
  const request = (token: string): HttpRequest => ({
    method: "POST",
    url: eventsUrl(probe.target),
    headers: {
      ...input.headers,
      ...(input.contentType === undefined ? {} : { "content-type": input.contentType }),
      authorization:
        input.authorization === undefined
          ? `Bearer ${token}`
          : input.authorization.replace(space.tokenSlot, token),
    },
    body,
    ...(input.encoding === undefined || input.encoding === "utf-8" ? {} : { bodyEncoding: input.encoding }),
  });
  const what =
    input.encoding === undefined || input.encoding === "utf-8"
      ? input.what
      : `${input.what} (the body's text shown as decoded)`;
  shown(showRequest(what, request("<ACCESS_TOKEN>")));
  // A class's words may quote the odd characters its inputs carry: a label is shown as it is, so make them inert.
  const label = `send ${inertText(input.what)}`;
  const first = await probe.exchange(label, request(keeper.token), { serverErrors: "report" });
  if (first.status !== 401) return first;
  const again = await probe.exchange(`${label} (with a renewed token)`, request(await keeper.renew()), {
    serverErrors: "report",
  });
  if (again.status === 401 && input.authorization === undefined)
    throw new UndecidableError(
      "the events endpoint refused a freshly issued token while inputs were being sent",
    );
  return again;
}

/** What a class's expectation asks of an answer to an event, at the events endpoint. */
function judgeEvent(expect: InputExpectation, response: HttpResponse, probe: Probe): Judgement {
  const status = response.status;
  const said = `received ${describeResponse(response, probe.redactor)}`;
  if (expect === "accepted")
    return isSuccess(status)
      ? { verdict: "holds", status }
      : { verdict: "broken", said: `expected a 2xx, ${said}`, serverError: false, status };
  if (expect === "refused")
    return REJECTED_CONTENT.statuses.includes(status)
      ? { verdict: "holds", status }
      : {
          verdict: "broken",
          said: `expected a refusal, ${describeRefusal(REJECTED_CONTENT)}, ${isSuccess(status) ? "accepted it: " : ""}${said}`,
          serverError: false,
          status,
        };
  return { verdict: "holds", status };
}

/** RFC 6749 §5.2: a refused token request is 400 or 401; a very long one may be 413 or 431 (RFC 9110, RFC 6585). */
const TOKEN_REFUSAL = [400, 401, 413, 431];

function judgeToken(expect: InputExpectation, response: HttpResponse, probe: Probe): Judgement {
  const status = response.status;
  const said = `received ${describeResponse(response, probe.redactor)}`;
  if (expect === "accepted")
    return status === 200 && accessTokenOf(response) !== undefined
      ? { verdict: "holds", status }
      : { verdict: "broken", said: `expected a token, ${said}`, serverError: false, status };
  if (expect === "refused")
    return TOKEN_REFUSAL.includes(status)
      ? { verdict: "holds", status }
      : {
          verdict: "broken",
          said: `expected a refusal, 400 or 401 (RFC 6749 §5.2), ${status === 200 ? "got a token: " : ""}${said}`,
          serverError: false,
          status,
        };
  return { verdict: "holds", status };
}

/** A 429 or a 5xx before the class's own judgement; the status kept for the report. */
async function answered(probe: Probe, response: HttpResponse, judge: () => Judgement): Promise<Judgement> {
  const limited = await rateLimited(probe, response);
  if (limited !== undefined) return { ...limited, status: 429 };
  const failed = serverError(probe, response);
  if (failed !== undefined) return { ...failed, status: response.status };
  return judge();
}

/** An event check: a token and a valid event accepted with it (so refusals prove something), then its classes. */
function eventCheck(
  base: Omit<ClassCheck<EventInputLike>, "prepare" | "area">,
  letter: string,
  pick: (space: InputSpace) => readonly InputClassLike<EventInputLike>[],
): CheckDefinition {
  const taken = [...STEM_LETTERS].find(([, used]) => used === letter);
  if (taken !== undefined)
    throw new Error(`${base.id} and ${taken[0]} would share the reference stem letter ${letter}`);
  STEM_LETTERS.set(base.id, letter);
  return defineClassCheck<EventInputLike>({
    ...base,
    area: "inputs",
    async prepare(probe, space, settings) {
      const accessToken = await premiseToken(probe);
      await premiseAcceptedEvent(probe, accessToken);
      const keeper = new TokenKeeper(probe, accessToken);
      const nextStem = stems(settings, letter);
      return {
        classes: pick(space),
        async judge(input, cls, scratch, shown) {
          const response = await sendEvent(scratch, keeper, input, nextStem(), space, shown);
          return answered(scratch, response, () => judgeEvent(cls.expect, response, scratch));
        },
      };
    },
  });
}

const VIA: Readonly<Record<ClientAuth, TokenRequestShapeLike["via"]>> = {
  post: "client_secret_post",
  basic: "client_secret_basic",
};

/**
 * The client authentications a token check explores: the configured one (its token is the premise), then the other
 * when the target gives a token with it too; one it refuses outright is left out, and said.
 */
async function clientAuths(
  probe: Probe,
): Promise<{ readonly ways: ClientAuth[]; readonly refused: ClientAuth[] }> {
  await premiseToken(probe);
  const configured = probe.target.clientAuth;
  const other: ClientAuth = configured === "post" ? "basic" : "post";
  const response = await probe.exchange(
    `request a token with ${VIA[other]}, to explore it too`,
    probe.tokenRequest({}, other),
    { serverErrors: "report" },
  );
  const works = response.status === 200 && accessTokenOf(response) !== undefined;
  return works ? { ways: [configured, other], refused: [] } : { ways: [configured], refused: [other] };
}

/** The target's valid token request under `as`, as the generators' classes take it. */
function shapeOf(
  probe: Probe,
  as: ClientAuth,
): { readonly shape: TokenRequestShapeLike; readonly request: HttpRequest } {
  const request = probe.tokenRequest({}, as);
  if (request.body === undefined) throw new PrerequisiteError("the token request has no form body to vary");
  return {
    request,
    shape: {
      via: VIA[as],
      fields: [...new URLSearchParams(request.body)],
      clientId: probe.target.clientId,
      clientSecret: probe.target.clientSecret.reveal(),
      secrets: new Set(["client_secret"]),
    },
  };
}

/** A token check: its classes under every client authentication the target accepts. */
function tokenCheck(
  base: Omit<ClassCheck<TokenFormInputLike>, "prepare" | "area">,
  pick: (
    space: InputSpace,
    shape: TokenRequestShapeLike,
    basicHeader: string | undefined,
  ) => readonly InputClassLike<TokenFormInputLike>[],
): CheckDefinition {
  return defineClassCheck<TokenFormInputLike>({
    ...base,
    area: "inputs",
    async prepare(probe, space) {
      const { ways, refused } = await clientAuths(probe);
      const requests = new Map<string, HttpRequest>();
      const classes = ways.flatMap((as) => {
        const { shape, request } = shapeOf(probe, as);
        requests.set(shape.via, request);
        return pick(space, shape, request.headers.authorization);
      });
      const unreachable = refused.flatMap((as) =>
        pick(space, shapeOf(probe, as).shape, undefined).map(
          (cls): readonly [InputClassLike<unknown>, string] => [
            cls as InputClassLike<unknown>,
            `the target gives no token with ${VIA[as]} (see token.form-auth and token.basic-auth)`,
          ],
        ),
      );
      return {
        classes,
        unreachable,
        async judge(input, cls, scratch, shown) {
          const base = requests.get(cls.via ?? "") as HttpRequest;
          for (const value of input.hide ?? [])
            scratch.redactor.addWithBase64(value, "<CLIENT_SECRET (altered)>");
          for (const [id, secret] of input.hideBasic ?? []) scratch.redactor.addBasic(id, secret);
          const { authorization: _, ...others } = base.headers;
          const authorization =
            input.withoutAuthorization === true
              ? undefined
              : (input.authorization ?? base.headers.authorization);
          const request: HttpRequest = {
            ...base,
            headers: {
              ...others,
              ...(authorization === undefined ? {} : { authorization }),
              "content-type": input.contentType,
            },
            body: input.body,
          };
          shown(showRequest(input.what, request));
          const response = await scratch.exchange(`request a token with ${inertText(input.what)}`, request, {
            serverErrors: "report",
          });
          return answered(scratch, response, () => judgeToken(cls.expect, response, scratch));
        },
      };
    },
  });
}

/** "customer.email/idna-u-label (client_secret_basic)": a class as a message names it. */
const classLabel = (failure: Pick<ClassFailure, "cls">) =>
  `${failure.cls.field} ${failure.cls.name}${failure.cls.via === undefined ? "" : ` (${failure.cls.via})`}`;

/** How a failure's input was reduced, for its message. */
function shrinkingOf(failure: ClassFailure): string {
  if (failure.path === failure.key)
    return failure.reproduced
      ? ` (a boundary the coverage sends in every run, input ${failure.run} of the class)`
      : " (a boundary the coverage sends in every run; it did not fail when sent again: a flaky target?)";
  if (!failure.reproduced)
    return " (not shrunk: the same input did not fail when sent again; a flaky target?)";
  if (failure.shrinkCapped)
    return ` (shrunk ${failure.shrinks} times, then stopped at the ${MAX_SHRINK_STEPS} shrink steps a check takes at most)`;
  if (failure.shrinkInterrupted)
    return ` (shrunk ${failure.shrinks} times, then the time limit stopped; replay the path to shrink on)`;
  return failure.shrinks > 0
    ? ` (shrunk ${failure.shrinks} times from input ${failure.run})`
    : ` (input ${failure.run}, already minimal)`;
}

/** How the outcome reads, and what it leaves for the reports (exploration, counterexample, evidence). */
function findingOf(
  probe: Probe,
  settings: FuzzSettings,
  check: { readonly id: string; readonly inputs: string; readonly rule: string },
  outcome: ExploreOutcome,
): Finding {
  if (outcome.kind === "nothing-sent") return skipped(`no input sent: ${outcome.why}`);
  probe.exploration = outcome.exploration;
  const seed = `seed ${settings.seed}`;
  const classes = outcome.exploration.classes;
  const reached = classes.filter((cls) => cls.outcome !== "not-reached").length;
  const notReached = classes.filter((cls) => cls.outcome === "not-reached").map((cls) => cls.key);
  const notJudged =
    outcome.notJudged > 0
      ? `; ${outcome.notJudged} answer${outcome.notJudged === 1 ? " was" : "s were"} 429 and judged nothing`
      : "";
  const missed =
    notReached.length > 0
      ? `; not reached: ${notReached.slice(0, 6).join(", ")}${notReached.length > 6 ? ` and ${notReached.length - 6} more` : ""}`
      : "";
  const undecided =
    outcome.errors.length > 0
      ? `; could not decide ${outcome.errors.map((error) => error.key).join(", ")}`
      : "";
  const replay = (failure: ClassFailure) =>
    `--seed ${settings.seed} --only ${check.id} --fuzz-runs ${settings.runs} --fuzz-replay ${failure.path}`;
  const [first] = outcome.failures;
  if (first === undefined) {
    const firstError = outcome.errors[0];
    // Nothing broke, but a class could not be decided: the check could not decide either.
    if (firstError !== undefined) throw firstError.error;
    if (outcome.judged === 0) {
      throw new UndecidableError(
        outcome.notJudged > 0
          ? `every input sent was answered 429 (too many requests): ${outcome.notJudged} not judged`
          : "no input was judged within the time limit",
      );
    }
    if (outcome.replayed !== undefined)
      return holds(
        `${outcome.judged} ${check.inputs} of ${outcome.replayed.split(":")[0]} answered as the class requires (${seed}; replayed ${outcome.replayed}${notJudged})`,
      );
    const cut = outcome.interrupted
      ? `; the time limit of ${formatDuration(settings.timeLimitMs)} ended the exploration after ${outcome.judged} inputs`
      : "";
    return holds(
      `${outcome.judged} ${check.inputs} over ${reached} class${reached === 1 ? "" : "es"} answered as each class requires (${seed}, ${outcome.exploration.coverage === "all" ? "every boundary" : "each class's first boundary"}, then ${settings.runs} drawn${cut}${notJudged}${missed})`,
    );
  }
  for (const failure of outcome.failures.slice(0, 5))
    if (failure.evidence !== undefined) probe.evidence.push(failure.evidence);
  const describe = (failure: ClassFailure) => {
    const { what, contentType, body } = failure.shown;
    const quoted = probe.quote(body);
    return (
      `${classLabel(failure)}: ${failure.judgement.said} for ${what}; minimal input${shrinkingOf(failure)}: ` +
      `${quoted.length > MESSAGE_INPUT_CHARS ? `${ownCopy(quoted.slice(0, MESSAGE_INPUT_CHARS))}… (${body.length} chars)` : quoted}` +
      `${contentType === "application/json" || contentType === "application/x-www-form-urlencoded" ? "" : ` sent as ${contentType === undefined ? "no Content-Type" : probe.quote(contentType)}`}` +
      `; replay with ${replay(failure)}`
    );
  };
  const { what, contentType, body } = first.shown;
  const quoted = probe.quote(body);
  probe.counterexample = {
    what: probe.quote(what),
    contentType: contentType === undefined ? null : probe.quote(contentType),
    input:
      quoted.length > COUNTEREXAMPLE_CHARS
        ? `${ownCopy(quoted.slice(0, COUNTEREXAMPLE_CHARS))}… (${body.length} chars)`
        : quoted,
    seed: settings.seed,
    path: first.path,
    class: first.key,
    byCoverage: first.byCoverage,
    shrinks: first.shrinks,
    foundAt: { input: first.run, afterMs: first.foundAfterMs, shrinkMs: first.shrinkMs },
    replay: replay(first),
  };
  const others = outcome.failures.length - 1;
  const message =
    `${outcome.failures.length} of ${reached} class${reached === 1 ? "" : "es"} broken (${seed}): ${describe(first)}` +
    `${outcome.failures
      .slice(1, 4)
      .map((failure) => `; also ${describe(failure)}`)
      .join("")}` +
    `${others > 3 ? `; and ${others - 3} more (see the exploration)` : ""}${undecided}${notJudged}${missed}`;
  // A 5xx is a MUST failure whatever the check's level, reported under the rule it broke.
  if (outcome.failures.some((failure) => failure.judgement.serverError))
    throw new ServerFailureError(message, check.rule);
  return broken(message);
}

function defineClassCheck<T>(check: ClassCheck<T>): CheckDefinition {
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
      // Room for the exploration and, after a failure, the shrinking, each with the input in flight at its limit:
      // a deadline the user did not fix stretches.
      const now = Date.now();
      const inFlightMs = IN_FLIGHT_EXCHANGES * probe.target.timeoutMs + MAX_RETRY_AFTER_MS;
      probe.reserveUntil(
        now + settings.timeLimitMs + settings.shrinkLimitMs + 2 * inFlightMs + RESERVE_SLACK_MS,
        now,
      );
      const definition = await check.prepare(probe, space, settings);
      const outcome = await exploreClasses(probe, settings, { checkId: check.id, ...definition });
      return findingOf(probe, settings, check, outcome);
    },
  });
}

const REFUSAL = describeRefusal(REJECTED_CONTENT);

export const inputsValidAccepted = eventCheck(
  {
    id: "inputs.valid-accepted",
    title:
      "Valid events from the whole space the spec allows are accepted (property-based, per field: + and non-ASCII addresses, long references with quotes, emoji, boundary dates)",
    level: "MUST",
    rule: "Endpoints §2; Resources: Event (every documented field, in its documented form)",
    inputs: "valid events",
  },
  "v",
  (space) => space.valid,
);

export const inputsNoServerError = eventCheck(
  {
    id: "inputs.no-server-error",
    title:
      "No input the spec is silent on, and no body that is not a JSON event, makes the server fail (property-based: unknown properties, huge numbers, deep nesting, repeated keys, media types, malformed JSON)",
    level: "MUST",
    rule: "Endpoints §2; RFC 9110 §15.6",
    inputs: "inputs the spec is silent on",
  },
  "n",
  (space) => space.silent,
);

export const inputsTypesEnforced = eventCheck(
  {
    id: "inputs.types-enforced",
    title: `An event with a documented field of the wrong JSON type is refused, ${REFUSAL} (property-based: numbers, null, arrays and objects where the spec says string or object)`,
    level: "MUST",
    rule: "Resources: Event (each field's type); RFC 9110 §15.5",
    inputs: "events with a field of the wrong type",
  },
  "t",
  (space) => space.types,
);

export const inputsDatesEnforced = eventCheck(
  {
    id: "inputs.dates-enforced",
    title:
      "A transaction.date that is not ISO 8601 with milliseconds and a UTC designator is refused (property-based: no milliseconds, offsets, date only, impossible days)",
    level: "MUST",
    rule: "Resources: Event, transaction.date (ISO 8601 with milliseconds and a UTC designator); RFC 9110 §15.5",
    inputs: "events with a malformed date",
  },
  "d",
  (space) => space.dates,
);

export const inputsEmail = eventCheck(
  {
    id: "inputs.email",
    title:
      "customer.email across RFC 5321/5322, RFC 6531 and IDNA: every address all readings take is accepted, one no reading takes is refused, the rest never fail the server (property-based)",
    level: "MUST",
    rule: "Resources: Event, customer.email (E-mail address: RFC 5321 §4.5.3.1, RFC 5322 §3.4.1, RFC 6531 §3.3, RFC 5891); RFC 9110 §15.5",
    inputs: "e-mail addresses",
  },
  "e",
  (space) => space.email,
);

export const inputsStrings = eventCheck(
  {
    id: "inputs.strings",
    title:
      "type, transaction.reference, system and systemVersion in every Unicode category and at common store lengths: text is accepted, nothing fails the server (property-based)",
    level: "MUST",
    rule: "Resources: Event (each field a string); Endpoints §2; RFC 9110 §15.6",
    inputs: "strings",
  },
  "s",
  (space) => space.strings,
);

export const inputsCalendar = eventCheck(
  {
    id: "inputs.calendar",
    title:
      "transaction.date on the calendar's edges: leap days, month ends and day edges accepted, days that do not exist refused (property-based)",
    level: "MUST",
    rule: "Resources: Event, transaction.date (ISO 8601 with milliseconds and a UTC designator); RFC 9110 §15.5",
    inputs: "dates",
  },
  "c",
  (space) => space.calendar,
);

export const inputsChannelId = eventCheck(
  {
    id: "inputs.channel-id",
    title: `A channel.id that does not start with "chl-" is refused, ${REFUSAL}; no tail fails the server (property-based)`,
    level: "MUST",
    rule: 'Resources: Event, channel.id ("It starts with the prefix chl-"); RFC 9110 §15.5',
    inputs: "channel ids",
  },
  "i",
  (space) => space.channelId,
);

export const inputsBody = eventCheck(
  {
    id: "inputs.body",
    title:
      "A body that is not a JSON object is refused; other encodings (a byte-order mark, UTF-16, bytes that are no UTF-8) never fail the server (property-based)",
    level: "MUST",
    rule: 'Resources: Event ("The body is a JSON object"); RFC 8259 §8.1; RFC 9110 §15.5',
    inputs: "bodies",
  },
  "b",
  (space) => space.body,
);

export const inputsEnvelope = eventCheck(
  {
    id: "inputs.envelope",
    title:
      "A valid event in every form RFC 9110 and RFC 6750 give its headers is accepted: media type case and parameters, the Bearer scheme's case and spacing, Accept, headers the spec does not name (property-based)",
    level: "MUST",
    rule: "Endpoints §2 (Request headers); Authentication rule 3; RFC 9110 §5.6, §8.3.1, §11.1; RFC 6750 §2.1",
    inputs: "requests",
  },
  "h",
  (space) => space.envelope,
);

export const inputsJsonGrammar = eventCheck(
  {
    id: "inputs.json-grammar",
    title:
      "A valid event written with any JSON whitespace, escapes and member order is accepted (property-based, RFC 8259)",
    level: "MUST",
    rule: "Endpoints §2 (JSON body); RFC 8259 §2, §4, §7",
    inputs: "JSON texts",
  },
  "j",
  (space) => space.jsonGrammar,
);

export const inputsTokenForm = tokenCheck(
  {
    id: "inputs.token-form",
    title:
      "Token requests with unknown, empty or repeated parameters, or other encodings of the same form, are answered as RFC 6749 says, with every client authentication the target accepts (property-based)",
    level: "SHOULD",
    rule: "RFC 6749 §2.3.1, §3.1 (empty is omitted), §3.2 (unknown ignored, none repeated), §5.2",
    inputs: "token requests",
  },
  (space, shape, basicHeader) => space.tokenForm(shape, basicHeader),
);

export const inputsTokenFields = tokenCheck(
  {
    id: "inputs.token-fields",
    title:
      "Token requests with grant_type or a credential left out, in another case, very long or cut short are refused; the spec's media type in any spelling gives a token; with every client authentication the target accepts (property-based)",
    level: "MUST",
    rule: 'Endpoints §1 (form fields; grant_type "Must be client_credentials"); Authentication rule 1; RFC 6749 §2.3, §5.2; RFC 9110 §8.3.1',
    inputs: "token requests",
  },
  (space, shape) => space.tokenFields(shape),
);

/**
 * The property-based stage (area `inputs`), in the order it runs: events from valid to malformed, field by field,
 * the envelope, then the token form. It runs after the other fast checks, so its inputs never delay them.
 */
export const PROPERTY_CHECKS: readonly CheckDefinition[] = [
  inputsValidAccepted,
  inputsNoServerError,
  inputsTypesEnforced,
  inputsDatesEnforced,
  inputsEmail,
  inputsStrings,
  inputsCalendar,
  inputsChannelId,
  inputsBody,
  inputsEnvelope,
  inputsJsonGrammar,
  inputsTokenForm,
  inputsTokenFields,
];

/** The ids of the property-based checks: the stage `--fuzz-*` options apply to. */
export const PROPERTY_CHECK_IDS: readonly string[] = PROPERTY_CHECKS.map((check) => check.id);
