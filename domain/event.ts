import { z } from "zod";

/** Spec: channel.id "starts with the prefix chl-". */
export const CHANNEL_PREFIX = "chl-";

/**
 * Characters beyond ASCII an address may hold (RFC 6532 §3.2): the Basic Multilingual Plane without C1 controls or
 * surrogates. Written with `\u` escapes and no flags so every regex engine a tool may use reads it the same.
 */
const NON_ASCII = "\\u00A0-\\uD7FF\\uE000-\\uFFFD";
/** RFC 5322 §3.2.3 atext, widened by RFC 6532 to characters beyond ASCII. */
const ATEXT = `A-Za-z0-9!#$%&'*+/=?^_\`{|}~\\-${NON_ASCII}`;
const LABEL = `A-Za-z0-9${NON_ASCII}`;

/**
 * Spec: customer.email is an "E-mail address": a dot-atom local part (RFC 5322 §3.4.1, `+`, dots and letters
 * beyond ASCII included, RFC 6532) at a domain of at least two labels. Quoted local parts and address literals,
 * which no checkout form takes, are left out.
 */
export const EMAIL_PATTERN = new RegExp(
  `^[${ATEXT}]+(?:\\.[${ATEXT}]+)*@(?:[${LABEL}](?:[${LABEL}\\-]*[${LABEL}])?\\.)+[A-Za-z${NON_ASCII}]{2,}$`,
);

/**
 * Spec: transaction.date is "ISO 8601 format with milliseconds and a UTC designator" (2026-01-02T03:04:05.678Z):
 * exactly three fractional digits and `Z`, on a day that exists (leap years included). One pattern, ASCII digits
 * only, so a generator that reads it produces only dates the schema accepts.
 */
export const TRANSACTION_DATE_PATTERN =
  /^(?:(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)-02-29|[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8])))T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]\.[0-9]{3}Z$/;

export const transactionDateSchema = z
  .string()
  .regex(TRANSACTION_DATE_PATTERN, {
    error: "Invalid date: ISO 8601 with milliseconds and Z expected, e.g. 2026-01-02T03:04:05.678Z",
  })
  .describe(
    "ISO 8601 with milliseconds and a UTC designator (2026-01-02T03:04:05.678Z): a day that exists, exactly three fractional digits, Z.",
  );

/** Spec: "customer.email | string | E-mail address of the customer". */
const emailSchema = z
  .string()
  .regex(EMAIL_PATTERN, { error: "Invalid email address" })
  .describe(
    "An e-mail address: a dot-atom local part (RFC 5322; `+`, dots and letters beyond ASCII included, RFC 6532) @ a domain of two labels or more.",
  );
/** Spec: "channel.id | string | Identifier of the channel ... It starts with the prefix chl-" ("chl-" itself does). */
const channelIdSchema = z.string().startsWith(CHANNEL_PREFIX);
/**
 * Where the spec names only "string" (type, transaction.reference, system, systemVersion) any string keeps it, the
 * empty one included: only the generator's own form (`complete`) asks for more.
 */
const text = z.string();
const nonEmpty = z.string().min(1);

/**
 * The event with every documented field present, in the form the harness's generator sends: non-empty strings and
 * a channel id with something after its prefix. Unknown extra fields are accepted at every level: the spec leaves
 * "other fields of an event" open.
 */
export const completeEventSchema = z.looseObject({
  /** Spec: "type | string | The kind of event. The value checkout is the one that is used" (further values: not shown). */
  type: nonEmpty,
  customer: z.looseObject({ email: emailSchema }),
  channel: z.looseObject({ id: channelIdSchema.min(CHANNEL_PREFIX.length + 1) }),
  transaction: z.looseObject({
    /** Spec: "transaction.reference | string | The client's own reference of the transaction". */
    reference: nonEmpty,
    date: transactionDateSchema,
  }),
  /** Spec: "system | string | Name of the client system that sends the event". */
  system: nonEmpty,
  /** Spec: "systemVersion | string | Version of the client system that sends the event". */
  systemVersion: nonEmpty,
});

/** Each documented field in the form the spec gives it, nothing more. */
const customerSchema = z.looseObject({ email: emailSchema });
const channelSchema = z.looseObject({ id: channelIdSchema });

/**
 * The production service's documented requirements (shared/notes/real-service.md): `type`, `customer.email`,
 * `channel.id` and `transaction.reference` are required; the other documented fields are optional but typed.
 */
export const productionEventSchema = z.looseObject({
  type: text,
  customer: customerSchema,
  channel: channelSchema,
  transaction: z.looseObject({ reference: text, date: transactionDateSchema.optional() }),
  system: text.optional(),
  systemVersion: text.optional(),
});

/** Only what the spec itself says: no field is known to be required, but a present field must have its documented form. */
export const lenientEventSchema = z.looseObject({
  type: text.optional(),
  customer: customerSchema.partial().optional(),
  channel: channelSchema.partial().optional(),
  transaction: z
    .looseObject({ reference: text.optional(), date: transactionDateSchema.optional() })
    .optional(),
  system: text.optional(),
  systemVersion: text.optional(),
});

/**
 * How strictly an event is validated, since the spec does not say which fields are required:
 * - `complete`: every documented field required, in the generator's form (non-empty strings);
 * - `production`: the fields the real service requires (the sandbox's default);
 * - `lenient`: none required, documented formats enforced.
 */
export const EVENT_STRICTNESS = ["complete", "production", "lenient"] as const;
export type EventStrictness = (typeof EVENT_STRICTNESS)[number];

export const eventSchemas = {
  complete: completeEventSchema,
  production: productionEventSchema,
  lenient: lenientEventSchema,
} as const satisfies Record<EventStrictness, z.ZodType>;

/** A checkout event with every documented field, as the generator produces it. */
export type CheckoutEvent = z.infer<typeof completeEventSchema>;
/** An event the production service would accept. */
export type ProductionEvent = z.infer<typeof productionEventSchema>;
