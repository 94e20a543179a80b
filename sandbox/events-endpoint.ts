import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createSfc32 } from "../core/index.ts";
import type { BearerAuthenticator, BearerResult } from "./bearer-auth.ts";
import type { BearerChallenger } from "./bearer-challenge.ts";
import type { EventStore } from "./event-store.ts";
import type { EventCheck } from "./event-validation.ts";
import { createEventValidator, invalidEventBody, referenceOf } from "./event-validation.ts";
import { createFragileInput } from "./fragile-input.ts";
import { isJsonContentType, readBody } from "./http-body.ts";
import { messageBody, replyEmpty, replyJson } from "./http-reply.ts";
import type { SandboxConfig } from "./options.ts";
import type { Handler } from "./router.ts";

export interface EventsEndpointDeps {
  readonly config: SandboxConfig;
  readonly authenticator: BearerAuthenticator;
  readonly challenger: BearerChallenger;
  readonly events: EventStore;
}

const UNSUPPORTED_MEDIA_TYPE = messageBody("Unsupported media type: send the event as application/json");
const TOO_LARGE = messageBody("Request body too large");
const INTERNAL_ERROR = messageBody("Internal server error");
const UNAVAILABLE = messageBody("Service unavailable, try again later");

function malformedJsonBody(error: unknown): string {
  const detail = error instanceof Error ? error.message : "unparsable";
  return JSON.stringify({
    Message: `Invalid request: the body is not valid JSON (${detail})`,
    Errors: [{ path: "", message: `Not valid JSON: ${detail}` }],
  });
}

function acceptedBody(id: string): string {
  return `{"Message":"Your event (\`${id}\`) was accepted for processing.","EventRef":"${id}"}`;
}

/** A UTF-16 body: a byte-order mark FE FF or FF FE, or a NUL byte beside the first character (RFC 4627 §3). */
function looksUtf16(body: Buffer): boolean {
  const [a, b] = [body[0], body[1]];
  return (a === 0xfe && b === 0xff) || (a === 0xff && b === 0xfe) || a === 0 || b === 0;
}

/** The event as one line of JSON: the text received when it has no line break (the usual case), else re-encoded. */
function singleLine(text: string, value: unknown): string {
  return text.includes("\n") || text.includes("\r") ? JSON.stringify(value) : text.trim();
}

type Parsed =
  | { readonly ok: true; readonly text: string; readonly value: unknown }
  | { readonly ok: false; readonly error: unknown };

function parseJson(body: Buffer): Parsed {
  const text = body.toString("utf8");
  try {
    return { ok: true, text, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error };
  }
}

/** `POST {baseUrl}/events` and `GET {baseUrl}/events/{ref}`. */
export function createEventsEndpoint(deps: EventsEndpointDeps): { post: Handler; get: Handler } {
  const { config, authenticator, challenger, events } = deps;
  const { faults, clock, maxBodyBytes } = config;
  const validate = createEventValidator(config.eventStrictness);
  const failValid = faults.has("events-5xx");
  const failInvalid = faults.has("events-invalid-5xx");
  const acceptInvalid = faults.has("events-accept-invalid");
  const notStored = faults.has("events-not-stored");
  const anyContentType = faults.has("events-any-content-type");
  const rejectedStored = faults.has("bearer-rejected-stored");
  const fragile = createFragileInput(faults);
  const arrayBodies = faults.has("events-array-body-accepted");
  const utf16Fails = faults.has("events-5xx-utf16-body");
  const bearerCaseFails = faults.has("events-5xx-bearer-lowercase");
  const strictContentType = faults.has("events-strict-content-type");
  const fractionRate = faults.has("events-5xx-fraction") ? config.faultRate : 0;
  let validCount = 0;
  // A flaky server: random but seeded, so a failing run can be repeated draw for draw.
  const flakyDraw = faults.has("events-500-one-in-seven")
    ? createSfc32(config.faultSeed, 0x5eed_0007, 0x9e37_79b9, 7)
    : undefined;
  const failsFlaky = (): boolean => flakyDraw !== undefined && flakyDraw() % 7 === 0;

  /** Evenly spread and deterministic: the n-th valid event fails when floor(n·rate) steps up. */
  function failsFraction(): boolean {
    if (fractionRate === 0) return false;
    validCount += 1;
    return Math.floor(validCount * fractionRate) > Math.floor((validCount - 1) * fractionRate);
  }

  function store(clientId: string, reference: string | undefined, json: string | undefined): string {
    const id = `evt-${randomUUID()}`;
    events.add({ id, clientId, reference, createdAt: clock.now(), json });
    return id;
  }

  /** The `bearer-rejected-stored` fault: the handler did its work before the authentication check. */
  async function storeRejected(
    req: IncomingMessage,
    res: ServerResponse,
    result: BearerResult,
  ): Promise<void> {
    const description = result.ok || result.missing ? undefined : result.description;
    const body = await readBody(req, maxBodyBytes);
    const parsed = body.ok ? parseJson(body.body) : undefined;
    if (parsed?.ok && validate(parsed.value).ok) {
      const clientId = authenticator.claimedClientId(req.headers.authorization);
      const id = store(clientId, referenceOf(parsed.value), singleLine(parsed.text, parsed.value));
      challenger.reply(res, description, { EventRef: id });
      return;
    }
    challenger.reply(res, description);
  }

  /** Answers a request without a usable token: 401, or what the `bearer-rejected-stored` fault does. */
  async function refuse(req: IncomingMessage, res: ServerResponse, result: BearerResult): Promise<undefined> {
    if (result.ok) return undefined;
    if (rejectedStored && req.method === "POST") await storeRejected(req, res, result);
    else challenger.reply(res, result.missing ? undefined : result.description);
    return undefined;
  }

  /**
   * The client id of an authenticated request; undefined once a refused one has been answered. Synchronous for a
   * token the store knows, so the hot path awaits nothing here.
   */
  function authenticate(req: IncomingMessage, res: ServerResponse): string | Promise<string | undefined> {
    const pending = authenticator.authenticate(req.headers.authorization);
    if (pending instanceof Promise) {
      return pending.then((result) => (result.ok ? result.clientId : refuse(req, res, result)));
    }
    return pending.ok ? pending.clientId : refuse(req, res, pending);
  }

  function rejectInvalid(res: ServerResponse, body: string): void {
    replyJson(res, failInvalid ? 500 : 400, failInvalid ? INTERNAL_ERROR : body);
  }

  const post: Handler = async (req, res) => {
    const scheme = req.headers.authorization;
    // A handler that cuts the token after the literal "Bearer ": another spelling leaves it nothing to cut.
    if (
      bearerCaseFails &&
      scheme !== undefined &&
      /^bearer\s/i.test(scheme) &&
      !scheme.startsWith("Bearer ")
    ) {
      replyJson(res, 500, INTERNAL_ERROR);
      return;
    }
    const authenticated = authenticate(req, res);
    const clientId = typeof authenticated === "string" ? authenticated : await authenticated;
    if (clientId === undefined) return;
    // A server that decodes the body before it looks at the media type (the UTF-16 fault) reads it first.
    const early = utf16Fails ? await readBody(req, maxBodyBytes) : undefined;
    if (early?.ok === true && looksUtf16(early.body)) {
      replyJson(res, 500, INTERNAL_ERROR);
      return;
    }
    const contentType = req.headers["content-type"];
    if (
      (!anyContentType && !isJsonContentType(contentType)) ||
      (strictContentType && contentType !== "application/json")
    ) {
      replyJson(res, 415, UNSUPPORTED_MEDIA_TYPE);
      return;
    }
    const body = early ?? (await readBody(req, maxBodyBytes));
    if (!body.ok) {
      if (body.reason === "too-large") replyJson(res, 413, TOO_LARGE, { connection: "close" });
      return;
    }
    const parsed = parseJson(body.body);
    if (!parsed.ok) {
      rejectInvalid(res, malformedJsonBody(parsed.error));
      return;
    }
    if (arrayBodies && Array.isArray(parsed.value) && parsed.value.length > 0) {
      const batch: unknown[] = parsed.value;
      if (batch.every((item) => validate(item).ok)) {
        const ids = batch.map((item) => store(clientId, referenceOf(item), JSON.stringify(item)));
        replyJson(res, 202, acceptedBody(ids[0] as string));
        return;
      }
    }
    if (fragile?.failsBeforeValidation(parsed.text, parsed.value)) {
      replyJson(res, 500, INTERNAL_ERROR);
      return;
    }
    const value = fragile === undefined ? parsed.value : fragile.read(parsed.value);
    const check: EventCheck = validate(value);
    if (!check.ok && !acceptInvalid) {
      rejectInvalid(res, invalidEventBody(check.problems));
      return;
    }
    if (failValid || (check.ok && fragile?.failsOnValid(value))) {
      replyJson(res, 500, INTERNAL_ERROR);
      return;
    }
    if (failsFlaky()) {
      replyJson(res, 500, INTERNAL_ERROR);
      return;
    }
    if (failsFraction()) {
      replyJson(res, 503, UNAVAILABLE, { "retry-after": "1" });
      return;
    }
    const reference = check.ok ? check.reference : referenceOf(value);
    const existing = reference === undefined ? undefined : events.duplicateOf(clientId, reference);
    if (existing !== undefined) {
      replyJson(
        res,
        409,
        JSON.stringify({
          Message: `Invalid request: transaction.reference must be unique (already used by ${existing})`,
          Errors: [{ path: "transaction.reference", message: "must be unique" }],
        }),
      );
      return;
    }
    const id = store(clientId, reference, notStored ? undefined : singleLine(parsed.text, parsed.value));
    replyJson(res, 202, acceptedBody(id));
  };

  const get: Handler = async (req, res, id) => {
    const authenticated = authenticate(req, res);
    const clientId = typeof authenticated === "string" ? authenticated : await authenticated;
    if (clientId === undefined) return;
    const event = events.get(id);
    // Another client's event is reported as absent, so ids reveal nothing across clients.
    if (event === undefined || event.json === undefined || event.clientId !== clientId) {
      replyEmpty(res, 404);
      return;
    }
    const stored = JSON.parse(event.json) as Record<string, unknown>;
    replyJson(
      res,
      200,
      JSON.stringify({ ...stored, id: event.id, createdAt: new Date(event.createdAt).toISOString() }),
    );
  };

  return { post, get };
}
