import fc from "fast-check";
import type { EventInput, Json } from "./event-input.ts";
import { coverEvent, input, plainEvents, TOKEN_SLOT } from "./event-input.ts";
import type { InputClass, InputExpectation } from "./input-class.ts";
import type { WideEventOptions } from "./wide-event.ts";

/*
 * The request envelope of POST /events: each form RFC 9110 and RFC 6750 give the headers the spec names. A media
 * type's type, subtype and parameter names are case-insensitive, parameters sit behind optional whitespace and
 * `;`, a value may be a quoted-string (RFC 9110 §5.6.6, §8.3.1); an authentication scheme is case-insensitive
 * (RFC 9110 §11.1) and the Bearer token follows one or more spaces (RFC 6750 §2.1). Each is the header the spec
 * asks for, so a valid event sent with it is accepted. Headers the spec does not name are answered either way.
 */

const CONTENT_TYPES_ACCEPTED = [
  "Application/JSON",
  "APPLICATION/JSON",
  "application/json; charset=utf-8",
  "application/json;charset=UTF-8",
  'application/json; charset="utf-8"',
  "application/json; CHARSET=utf-8",
  "application/json ; charset=utf-8",
  "application/json;  charset=utf-8",
];

const SCHEMES = ["bearer", "BEARER", "BeArEr"];

const ACCEPTS = [
  "*/*",
  "application/json",
  "application/json, */*;q=0.8",
  "application/*",
  "application/json;q=1.0",
];

const EXTRA_HEADERS: ReadonlyArray<Readonly<Record<string, string>>> = [
  { "x-request-id": "3f2c1d4e-5b6a-4c8d-9e0f-1a2b3c4d5e6f" },
  { "user-agent": "Shopware/6.5.8 (+https://example.com)" },
  { "accept-language": "de-DE,de;q=0.9,en;q=0.8" },
  { "cache-control": "no-cache" },
  { "x-correlation-id": "order-4711", "x-forwarded-for": "192.0.2.10" },
];

const CONTENT_TYPES_OPEN = [
  "application/json; profile=checkout",
  "application/json; version=1",
  "application/vnd.api+json",
  "application/problem+json",
];

const ACCEPTS_OPEN = ["text/html", "application/xml", "image/png"];

function envelopeClass<V>(
  options: WideEventOptions,
  field: string,
  name: string,
  expect: InputExpectation,
  description: string,
  cover: readonly V[],
  make: (event: Json, value: V) => EventInput,
): InputClass<EventInput> {
  const base = coverEvent(options);
  return {
    field,
    name,
    description,
    expect,
    cover: cover.map((value) => make(base, value)),
    arbitrary: fc
      .tuple(plainEvents(options), fc.constantFrom(...cover))
      .map(([event, value]) => make(event, value)),
  };
}

/** The envelope classes: Content-Type, Authorization, Accept and headers the spec does not name. */
export function envelopeClasses(options: WideEventOptions = {}): InputClass<EventInput>[] {
  return [
    envelopeClass(
      options,
      "Content-Type",
      "media-type-forms",
      "accepted",
      "application/json in other letter case, with charset=utf-8 (quoted or not), whitespace around ; (RFC 9110 §8.3.1)",
      CONTENT_TYPES_ACCEPTED,
      (event, type) => ({
        ...input(`a valid event sent as ${JSON.stringify(type)}`, event),
        contentType: type,
      }),
    ),
    envelopeClass(
      options,
      "Authorization",
      "scheme-case",
      "accepted",
      'the Bearer scheme in other letter case (RFC 9110 §11.1; the token response\'s token_type is "bearer")',
      SCHEMES,
      (event, scheme) => ({
        ...input(`a valid event with Authorization: ${scheme} <token>`, event),
        authorization: `${scheme} ${TOKEN_SLOT}`,
      }),
    ),
    envelopeClass(
      options,
      "Authorization",
      "token-spacing",
      "accepted",
      "more than one space between Bearer and the token (RFC 6750 §2.1: 1*SP)",
      [2, 3],
      (event, spaces) => ({
        ...input(`a valid event with ${spaces} spaces after Bearer`, event),
        authorization: `Bearer${" ".repeat(spaces)}${TOKEN_SLOT}`,
      }),
    ),
    envelopeClass(
      options,
      "Accept",
      "json-accepted",
      "accepted",
      "an Accept header that takes JSON: */*, application/json, with q-values",
      ACCEPTS,
      (event, accept) => ({ ...input(`a valid event with Accept: ${accept}`, event), headers: { accept } }),
    ),
    envelopeClass(
      options,
      "headers",
      "unnamed-headers",
      "accepted",
      "headers the spec does not name (a request id, a user agent, a language, a correlation id): ignored",
      EXTRA_HEADERS,
      (event, headers) => ({
        ...input(`a valid event with ${Object.keys(headers).join(", ")}`, event),
        headers,
      }),
    ),
    envelopeClass(
      options,
      "Content-Type",
      "other-json-types",
      "answered",
      "application/json with a parameter it does not define, or a +json type (the spec names application/json)",
      CONTENT_TYPES_OPEN,
      (event, type) => ({
        ...input(`a valid event sent as ${JSON.stringify(type)}`, event),
        contentType: type,
      }),
    ),
    envelopeClass(
      options,
      "Accept",
      "json-not-accepted",
      "answered",
      "an Accept header that does not take JSON (RFC 9110 §12.5.1: a server may answer 406 or ignore it)",
      ACCEPTS_OPEN,
      (event, accept) => ({ ...input(`a valid event with Accept: ${accept}`, event), headers: { accept } }),
    ),
  ];
}
