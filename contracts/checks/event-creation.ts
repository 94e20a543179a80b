import { randomUUID } from "node:crypto";
import { eventsUrl } from "../../transport/index.ts";
import type { HttpRequest, HttpResponse } from "../probe/http-request.ts";
import { isServerError, isSuccess } from "../probe/http-request.ts";
import type { Probe } from "../probe/probe.ts";
import type { Finding } from "./check.ts";
import { broken, defineCheck, holds, observed, skipped } from "./check.ts";
import { describeResponse, jsonObject } from "./describe.ts";
import { premiseAcceptedEvent, premiseToken } from "./premise.ts";
import { describeRefusal, isRefusal, REJECTED_CONTENT } from "./refusal.ts";

interface BadInput {
  readonly name: string;
  readonly request: (probe: Probe, authorization: string) => HttpRequest;
}

function withBody(probe: Probe, authorization: string, body: string, contentType: string): HttpRequest {
  return {
    method: "POST",
    url: eventsUrl(probe.target),
    headers: { "content-type": contentType, authorization },
    body,
  };
}

const MALFORMED_JSON: BadInput = {
  name: "malformed JSON",
  request: (probe, authorization) =>
    withBody(probe, authorization, '{"type": "checkout", "customer": ', "application/json"),
};

const WRONG_CONTENT_TYPE: BadInput = {
  name: "a valid event sent as text/plain",
  request: (probe, authorization) =>
    withBody(probe, authorization, JSON.stringify(probe.newEvent()), "text/plain; charset=utf-8"),
};

/**
 * The probe's event breakers that break a documented format (`lenient`: the spec's own words) or drop a field
 * production requires (`production`); both when `violates` is not given.
 */
function invalidVariants(probe: Probe, violates?: "lenient" | "production"): BadInput[] {
  // "complete"-only breakers drop what production does not require: such an event is no error to reject.
  const negative = probe.eventBreakers.filter((variant) =>
    violates === undefined ? variant.violates !== "complete" : variant.violates === violates,
  );
  return negative.map((variant) => ({
    name: `invalid variant ${variant.name}`,
    request: (probe: Probe, authorization: string) =>
      probe.eventRequest(authorization, variant.apply(probe.newEvent() as never)),
  }));
}

/** Every bad input the harness can make: the invalid variants, malformed JSON, a wrong content type. */
function badInputs(probe: Probe): BadInput[] {
  return [...invalidVariants(probe), MALFORMED_JSON, WRONG_CONTENT_TYPE];
}

/**
 * Sends every bad input with a valid token, once a valid event was accepted with it (else a rejection proves
 * nothing); a 5xx is a MUST failure at once unless the caller reports it itself.
 */
async function sendAll(
  probe: Probe,
  inputs: readonly BadInput[],
  serverErrors: "fail" | "report" = "fail",
): Promise<Array<[string, HttpResponse]>> {
  const accessToken = await premiseToken(probe);
  await premiseAcceptedEvent(probe, accessToken);
  const authorization = `Bearer ${accessToken}`;
  const answers: Array<[string, HttpResponse]> = [];
  for (const input of inputs) {
    answers.push([
      input.name,
      await probe.exchange(`create an event with ${input.name}`, input.request(probe, authorization), {
        serverErrors,
      }),
    ]);
  }
  return answers;
}

function eventRefOf(response: HttpResponse): string | undefined {
  const body = jsonObject(response);
  const ref = body?.EventRef ?? body?.eventRef ?? body?.id;
  return typeof ref === "string" && ref !== "" ? ref : undefined;
}

/**
 * Valid events sent by events.accepted: one would only catch a server that fails every time. Thirty distinct ones
 * catch a server that fails one in seven with 99 % certainty on their own ((6/7)^30 ≈ 1 %), in one run.
 */
export const ACCEPTANCE_SAMPLE = 30;

export const eventsAccepted = defineCheck({
  id: "events.accepted",
  title: `Valid generated events are accepted (a sample of ${ACCEPTANCE_SAMPLE}, each a different event)`,
  area: "events",
  level: "MUST",
  rule: "Endpoints §2",
  profile: "fast",
  async run(probe) {
    const { accessToken } = await probe.obtainToken();
    let last: HttpResponse | undefined;
    for (let sent = 1; sent <= ACCEPTANCE_SAMPLE; sent += 1) {
      // A 5xx ends the check here as a FAIL naming this request (Probe.exchange).
      const response = await probe.postEvent(
        `create valid event ${sent} of ${ACCEPTANCE_SAMPLE}`,
        accessToken,
      );
      if (!isSuccess(response.status)) {
        const said = describeResponse(response, probe.redactor);
        return broken(
          `expected a 2xx for every valid event, received ${said} for event ${sent} of ${ACCEPTANCE_SAMPLE}`,
        );
      }
      last = response;
    }
    const ref = last === undefined ? undefined : eventRefOf(last);
    return holds(
      `${ACCEPTANCE_SAMPLE} valid events accepted (${last?.status}), ${ref === undefined ? "no event reference in the body" : `e.g. event reference ${probe.quote(ref)}`}`,
    );
  },
});

export const eventsNoServerError = defineCheck({
  id: "events.no-server-error",
  title: "No input makes the server fail (never a 5xx for a client's mistake)",
  area: "events",
  level: "MUST",
  rule: "Endpoints §2; RFC 9110 §15.6",
  profile: "fast",
  async run(probe) {
    const answers = await sendAll(probe, badInputs(probe), "report");
    const failures = answers.filter(([, response]) => isServerError(response.status));
    if (failures.length > 0) {
      return broken(
        `expected no 5xx, received ${failures.map(([name, r]) => `${r.status} for ${name}`).join("; ")}`,
      );
    }
    return holds(`${answers.length} bad inputs, no 5xx`);
  },
});

/** Sends each variant of `violates` and expects every one rejected for its content. */
async function variantsRejected(
  probe: Probe,
  violates: "lenient" | "production",
  what: string,
): Promise<Finding> {
  const variants = invalidVariants(probe, violates);
  // No variant sent is nothing tested: "all 0 rejected" would be a PASS that proved nothing.
  if (variants.length === 0)
    return skipped(`no invalid variant to send: none of the event breakers given ${what}`);
  const answers = await sendAll(probe, variants);
  const accepted = answers.filter(([, response]) => !isRefusal(response, REJECTED_CONTENT));
  if (accepted.length > 0) {
    return broken(
      `expected a rejection, ${describeRefusal(REJECTED_CONTENT)}, received ${accepted.map(([name, r]) => `${r.status} for ${name}`).join("; ")}`,
    );
  }
  return holds(`all ${answers.length} invalid variants rejected (${statusesOf(answers)})`);
}

/**
 * A format the spec itself states is one rule at one level, MUST, wherever it is checked: each field's type, the
 * e-mail address, the chl- prefix, the date profile and a JSON object as the body.
 */
export const eventsFormatsEnforced = defineCheck({
  id: "events.formats-enforced",
  title:
    "Events that break a format the spec states are rejected (400, 415 or 422): a field's type, the e-mail address, the chl- prefix, the date profile, a JSON object as the body",
  area: "events",
  level: "MUST",
  rule: 'Resources: Event (each field\'s type; customer.email an e-mail address; channel.id "starts with the prefix chl-"; transaction.date ISO 8601 with milliseconds and a UTC designator; "The body is a JSON object"); RFC 9110 §15.5',
  profile: "fast",
  run: (probe) => variantsRejected(probe, "lenient", "breaks a format the spec states"),
});

/** What production requires beyond the spec, which the spec leaves open: a warning, never a failure. */
export const eventsInvalidRejected = defineCheck({
  id: "events.invalid-rejected",
  title: "Events without a field production requires are rejected (400, 415 or 422)",
  area: "events",
  level: "SHOULD",
  rule: "Production requires type, customer.email, channel.id, transaction.reference (the spec: not shown)",
  profile: "fast",
  run: (probe) => variantsRejected(probe, "production", "drops a field production requires"),
});

/** The distinct statuses of some answers, "400, 415". */
function statusesOf(answers: ReadonlyArray<[string, HttpResponse]>): string {
  return [...new Set(answers.map(([, response]) => response.status))].join(", ");
}

/** One bad input that must be rejected for its content: a 404 or 401 says nothing about the input. */
async function rejectedForContent(probe: Probe, input: BadInput): Promise<Finding> {
  const [[, response] = ["", undefined]] = await sendAll(probe, [input]);
  if (response === undefined || !isRefusal(response, REJECTED_CONTENT)) {
    const said = response ? describeResponse(response, probe.redactor) : "nothing";
    return broken(`expected a rejection, ${describeRefusal(REJECTED_CONTENT)}, received ${said}`);
  }
  return holds(`rejected with ${response.status}`);
}

export const eventsMalformedJson = defineCheck({
  id: "events.malformed-json",
  title: "Malformed JSON is rejected (400, 415 or 422)",
  area: "events",
  level: "SHOULD",
  rule: "RFC 9110 §15.5.1",
  profile: "fast",
  run: (probe) => rejectedForContent(probe, MALFORMED_JSON),
});

export const eventsWrongContentType = defineCheck({
  id: "events.wrong-content-type",
  title: "A body that is not declared as JSON is rejected (400, 415 or 422)",
  area: "events",
  level: "SHOULD",
  rule: "Endpoints §2 (Content-Type: application/json); RFC 9110 §15.5.16",
  profile: "fast",
  run: (probe) => rejectedForContent(probe, WRONG_CONTENT_TYPE),
});

export const eventsResubmit = defineCheck({
  id: "events.resubmit",
  title: "What the target does with a resubmitted event (same transaction reference)",
  area: "events",
  level: "INFO",
  rule: "Resources: transaction.reference (production: must be unique)",
  profile: "fast",
  async run(probe) {
    const { accessToken } = await probe.obtainToken();
    const event = probe.newEvent();
    const first = await probe.postEvent("create an event", accessToken, event);
    if (!isSuccess(first.status))
      return skipped(`a valid event was not accepted (${first.status}; see events.accepted)`);
    const second = await probe.postEvent("resubmit the same event", accessToken, event);
    const said = describeResponse(second, probe.redactor);
    return observed(
      isSuccess(second.status)
        ? `the duplicate was accepted too (${said})`
        : `the duplicate was refused: ${said}`,
    );
  },
});

/** A 404 the same as one for `other`: the status, the media type and the body with each path's own words taken out. */
function sameAnswer(a: HttpResponse, aPath: string, b: HttpResponse, bPath: string): boolean {
  const shape = (response: HttpResponse, path: string) =>
    `${response.status} ${response.headers["content-type"] ?? ""} ${response.text.split(path).join("{path}")}`;
  return shape(a, aPath) === shape(b, bPath);
}

/**
 * A 404 for an acknowledged event: SKIP when a path no API serves gets the same answer (there is no read-back route,
 * or none that can be told from a missing one), else the route exists and the event is not found (WARN).
 */
async function notFound(
  probe: Probe,
  accessToken: string,
  ref: string,
  read: HttpResponse,
): Promise<Finding> {
  const unrouted = `eh-no-such-route-${randomUUID()}`;
  const path = `/events/${encodeURIComponent(ref)}`;
  const other = await probe.exchange(
    "read a path no API serves, to compare its 404",
    {
      method: "GET",
      url: `${probe.target.baseUrl}/${unrouted}/${encodeURIComponent(ref)}`,
      headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" },
    },
    { serverErrors: "report" },
  );
  if (sameAnswer(read, path, other, `/${unrouted}/${encodeURIComponent(ref)}`))
    return skipped(
      "no such route: the acknowledged event's 404 is the 404 of a path no API serves (the target offers no GET /events/{ref})",
    );
  return broken(
    `acknowledged event not found: GET /events/${probe.quote(ref)} answered 404, where a path no API serves answered ${describeResponse(other, probe.redactor)}: the route exists and lost the event`,
  );
}

export const eventsStored = defineCheck({
  id: "events.stored",
  title: "An accepted event can be read back (GET /events/{ref}, when the target offers it)",
  area: "events",
  level: "SHOULD",
  rule: "Production: GET {base_url}/events/{eventRef}",
  profile: "fast",
  async run(probe) {
    const { accessToken } = await probe.obtainToken();
    const event = probe.newEvent();
    const created = await probe.postEvent("create a valid event", accessToken, event);
    if (!isSuccess(created.status))
      return skipped(`a valid event was not accepted (${created.status}; see events.accepted)`);
    const ref = eventRefOf(created);
    if (ref === undefined) return skipped("the acceptance carries no event reference to read back");
    // GET is an optional capability outside the spec: its answers, 5xx included, are this SHOULD check's to judge.
    const read = await probe.exchange(
      "read the event back",
      {
        method: "GET",
        url: `${eventsUrl(probe.target)}/${encodeURIComponent(ref)}`,
        headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" },
      },
      { serverErrors: "report" },
    );
    if (read.status === 405 || read.status === 501)
      return skipped(`the target offers no GET for events (${read.status})`);
    if (read.status === 404) return notFound(probe, accessToken, ref, read);
    if (read.status !== 200)
      return broken(`expected 200 for the acknowledged event ${probe.quote(ref)}, received ${read.status}`);
    const stored = jsonObject(read)?.transaction;
    const reference = (event.transaction as { reference: string }).reference;
    const same =
      typeof stored === "object" &&
      stored !== null &&
      (stored as { reference?: unknown }).reference === reference;
    return same
      ? holds(`read back ${probe.quote(ref)} with its transaction reference`)
      : broken(`read back ${probe.quote(ref)}, but not with the reference sent (${reference})`);
  },
});

export const EVENT_CHECKS = [
  eventsAccepted,
  eventsNoServerError,
  eventsFormatsEnforced,
  eventsInvalidRejected,
  eventsMalformedJson,
  eventsWrongContentType,
  eventsResubmit,
  eventsStored,
] as const;
