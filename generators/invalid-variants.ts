import type { CheckoutEvent, EventStrictness } from "../domain/index.ts";
import { CHANNEL_PREFIX } from "../domain/index.ts";
import type { InvalidVariant } from "./invalid-variant.ts";
import type { JsonPath } from "./json-edit.ts";
import { cloneJson, withoutValueAt, withValueAt } from "./json-edit.ts";

/** The rows of the spec's Event table (seed/event-submission-api.md, "Resources and their fields"), quoted. */
const SPEC = {
  body: 'Spec, Event: "The body is a JSON object."',
  type: 'Spec, Event: "type | string | The kind of event."',
  customer: 'Spec, Event: "customer | object | Holds the customer\'s data."',
  email: 'Spec, Event: "customer.email | string | E-mail address of the customer (<EMAIL>)."',
  channel: 'Spec, Event: "channel | object | Identifies the channel."',
  channelId:
    'Spec, Event: "channel.id | string | Identifier of the channel, <channel_id>. It starts with the prefix "chl-"."',
  transaction: 'Spec, Event: "transaction | object | Describes the transaction."',
  reference:
    'Spec, Event: "transaction.reference | string | The client\'s own reference of the transaction (<order_reference>)."',
  date: 'Spec, Event: "transaction.date | string | Date and time of the transaction in ISO 8601 format with milliseconds and a UTC designator, <timestamp>."',
  system: 'Spec, Event: "system | string | Name of the client system that sends the event."',
  systemVersion: 'Spec, Event: "systemVersion | string | Version of the client system that sends the event."',
} as const;

/** The production service's documented requirement (shared/notes/real-service.md); the spec itself names none. */
const REQUIRED_IN_PRODUCTION =
  'Production: "Documented required fields: type, customer.email, channel.id, transaction.reference"';

/** Fields the spec documents without saying they are required: only the complete schema (the generator's own output) demands them. */
const requiredWhenComplete = (row: string): string =>
  `${row} The spec is silent on whether it is required ("Which event fields are required and which are optional: not shown."): only the complete schema, the generator's own form, demands it.`;

/** A value the spec's words allow, which only the generator's own form avoids: no target is to be faulted for accepting it. */
const allowedBySpec = (row: string, why: string): string =>
  `${row} The spec is silent beyond that: ${why}; only the complete schema, the generator's own form, refuses it.`;

/** The generator's own form, which refuses what the spec leaves open (an empty string, the bare prefix). */
function generatorForm(
  name: string,
  path: JsonPath,
  rule: string,
  value: (event: CheckoutEvent) => unknown,
): InvalidVariant {
  return { name, rule, path, violates: "complete", apply: (event) => withValueAt(event, path, value(event)) };
}

function missing(name: string, path: JsonPath, violates: EventStrictness, rule: string): InvalidVariant {
  return { name, rule, path, violates, apply: (event) => withoutValueAt(event, path) };
}

/** A present field in the wrong form: every schema enforces documented forms, so even `lenient` rejects it. */
function replaced(
  name: string,
  path: JsonPath,
  rule: string,
  value: (event: CheckoutEvent) => unknown,
): InvalidVariant {
  return { name, rule, path, violates: "lenient", apply: (event) => withValueAt(event, path, value(event)) };
}

/** The whole body replaced: `path` is the root. */
function body(
  name: string,
  violates: EventStrictness,
  value: (event: CheckoutEvent) => unknown,
): InvalidVariant {
  return { name, rule: SPEC.body, path: [], violates, apply: (event) => value(cloneJson(event)) };
}

const TYPE = ["type"] as const;
const CUSTOMER = ["customer"] as const;
const EMAIL = ["customer", "email"] as const;
const CHANNEL = ["channel"] as const;
const CHANNEL_ID = ["channel", "id"] as const;
const TRANSACTION = ["transaction"] as const;
const REFERENCE = ["transaction", "reference"] as const;
const DATE = ["transaction", "date"] as const;
const SYSTEM = ["system"] as const;
const SYSTEM_VERSION = ["systemVersion"] as const;

/** The date forms below rewrite the event's own `YYYY-MM-DDTHH:MM:SS.mmmZ` date, so each invalid body stays realistic. */
const ONE_HOUR_MS = 3_600_000;

/** Every catalogued way to break a valid event, one rule at a time (each variant changes exactly one thing). */
export const INVALID_VARIANTS: readonly InvalidVariant[] = Object.freeze(
  [
    body("body-is-array", "lenient", (event) => [event]),
    body("body-is-null", "lenient", () => null),
    // A classic client bug: the event serialised twice, so the body is a JSON string.
    body("body-is-json-string", "lenient", (event) => JSON.stringify(event)),
    body("body-is-empty-object", "production", () => ({})),

    missing("missing-type", TYPE, "production", REQUIRED_IN_PRODUCTION),
    replaced("type-not-string", TYPE, SPEC.type, () => 1),
    replaced("type-null", TYPE, SPEC.type, () => null),
    generatorForm("empty-type", TYPE, allowedBySpec(SPEC.type, "an empty string is a string"), () => ""),

    missing("missing-customer", CUSTOMER, "production", REQUIRED_IN_PRODUCTION),
    replaced("customer-not-object", CUSTOMER, SPEC.customer, (event) => event.customer.email),
    missing("missing-email", EMAIL, "production", REQUIRED_IN_PRODUCTION),
    replaced("malformed-email", EMAIL, SPEC.email, (event) => event.customer.email.replace("@", "(at)")),
    replaced("email-not-string", EMAIL, SPEC.email, (event) => [event.customer.email]),
    replaced("empty-email", EMAIL, SPEC.email, () => ""),
    replaced("email-with-display-name", EMAIL, SPEC.email, (event) => {
      const address = event.customer.email;
      return `${address.slice(0, address.indexOf("@"))} <${address}>`;
    }),

    missing("missing-channel", CHANNEL, "production", REQUIRED_IN_PRODUCTION),
    replaced("channel-not-object", CHANNEL, SPEC.channel, (event) => event.channel.id),
    missing("missing-channel-id", CHANNEL_ID, "production", REQUIRED_IN_PRODUCTION),
    replaced("channel-prefix-missing", CHANNEL_ID, SPEC.channelId, (event) =>
      stripChannelPrefix(event.channel.id),
    ),
    generatorForm(
      "channel-id-prefix-only",
      CHANNEL_ID,
      allowedBySpec(SPEC.channelId, `"${CHANNEL_PREFIX}" alone does start with "${CHANNEL_PREFIX}"`),
      () => CHANNEL_PREFIX,
    ),
    replaced(
      "channel-prefix-uppercase",
      CHANNEL_ID,
      SPEC.channelId,
      (event) => `${CHANNEL_PREFIX.toUpperCase()}${stripChannelPrefix(event.channel.id)}`,
    ),
    replaced("channel-id-not-string", CHANNEL_ID, SPEC.channelId, () => 42),

    missing("missing-transaction", TRANSACTION, "production", REQUIRED_IN_PRODUCTION),
    replaced("transaction-not-object", TRANSACTION, SPEC.transaction, (event) => event.transaction.reference),
    missing("missing-reference", REFERENCE, "production", REQUIRED_IN_PRODUCTION),
    generatorForm(
      "empty-reference",
      REFERENCE,
      allowedBySpec(SPEC.reference, "an empty string is a string (production asks only that it be unique)"),
      () => "",
    ),
    // Numeric order numbers are the usual way a reference loses its quotes.
    replaced("reference-not-string", REFERENCE, SPEC.reference, (event) =>
      trailingNumber(event.transaction.reference),
    ),

    missing("missing-date", DATE, "complete", requiredWhenComplete(SPEC.date)),
    replaced(
      "date-without-milliseconds",
      DATE,
      SPEC.date,
      (event) => `${event.transaction.date.slice(0, 19)}Z`,
    ),
    replaced(
      "date-with-microseconds",
      DATE,
      SPEC.date,
      (event) => `${event.transaction.date.slice(0, 23)}000Z`,
    ),
    replaced("date-with-offset", DATE, SPEC.date, (event) => {
      const instant = Date.parse(event.transaction.date);
      return `${new Date(instant + ONE_HOUR_MS).toISOString().slice(0, 23)}+01:00`;
    }),
    replaced("date-without-designator", DATE, SPEC.date, (event) => event.transaction.date.slice(0, 23)),
    replaced("date-only", DATE, SPEC.date, (event) => event.transaction.date.slice(0, 10)),
    replaced("date-not-iso", DATE, SPEC.date, (event) => {
      const date = event.transaction.date;
      return `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;
    }),
    replaced(
      "date-impossible",
      DATE,
      SPEC.date,
      (event) => `${event.transaction.date.slice(0, 4)}-02-30${event.transaction.date.slice(10)}`,
    ),
    replaced("date-not-string", DATE, SPEC.date, (event) => Date.parse(event.transaction.date)),

    missing("missing-system", SYSTEM, "complete", requiredWhenComplete(SPEC.system)),
    replaced("system-not-string", SYSTEM, SPEC.system, (event) => ({ name: event.system })),
    generatorForm(
      "empty-system",
      SYSTEM,
      allowedBySpec(SPEC.system, "an empty string is a string"),
      () => "",
    ),
    missing("missing-system-version", SYSTEM_VERSION, "complete", requiredWhenComplete(SPEC.systemVersion)),
    // Versions sent as JSON numbers (1.2 rather than "1.2") are a common client slip.
    replaced("system-version-not-string", SYSTEM_VERSION, SPEC.systemVersion, (event) =>
      asNumber(event.systemVersion),
    ),
    generatorForm(
      "empty-system-version",
      SYSTEM_VERSION,
      allowedBySpec(SPEC.systemVersion, "an empty string is a string"),
      () => "",
    ),
  ].map((variant) => Object.freeze({ ...variant, path: Object.freeze([...variant.path]) })),
);

/** Every variant name, in catalogue order. */
export const INVALID_VARIANT_NAMES: readonly string[] = Object.freeze(
  INVALID_VARIANTS.map((variant) => variant.name),
);

const BY_NAME = new Map(INVALID_VARIANTS.map((variant) => [variant.name, variant]));

export function findInvalidVariant(name: string): InvalidVariant | undefined {
  return BY_NAME.get(name);
}

function stripChannelPrefix(id: string): string {
  return id.startsWith(CHANNEL_PREFIX) ? id.slice(CHANNEL_PREFIX.length) : id;
}

function trailingNumber(reference: string): number {
  const digits = /\d+$/.exec(reference)?.[0];
  return digits === undefined ? 1 : Number(digits);
}

function asNumber(version: string): number {
  const value = Number.parseFloat(version);
  return Number.isFinite(value) ? value : 1;
}
