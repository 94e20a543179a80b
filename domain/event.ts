import { z } from "zod";

/** Spec: channel.id "starts with the prefix chl-". */
export const CHANNEL_PREFIX = "chl-";

/** Spec: transaction.date is "ISO 8601 format with milliseconds and a UTC designator" (e.g. 2026-01-02T03:04:05.678Z). */
export const transactionDateSchema = z.iso.datetime({ precision: 3 });

/** Spec: Resources, "Event", customer. */
const customerSchema = z.looseObject({
  /** Spec: "customer.email | string | E-mail address of the customer". */
  email: z.email(),
});

/** Spec: Resources, "Event", channel. */
const channelSchema = z.looseObject({
  /** Spec: "channel.id | string | Identifier of the channel ... It starts with the prefix chl-". */
  id: z
    .string()
    .startsWith(CHANNEL_PREFIX)
    .min(CHANNEL_PREFIX.length + 1),
});

/** Spec: Resources, "Event", transaction. */
const transactionSchema = z.looseObject({
  /** Spec: "transaction.reference | string | The client's own reference of the transaction". */
  reference: z.string().min(1),
  /** Spec: "transaction.date | string | ... ISO 8601 format with milliseconds and a UTC designator". */
  date: transactionDateSchema,
});

/**
 * The event with every documented field present: what the harness's generator sends.
 * Unknown extra fields are accepted at every level: the spec leaves "other fields of an event" open.
 */
export const completeEventSchema = z.looseObject({
  /** Spec: "type | string | The kind of event. The value checkout is the one that is used" (further values: not shown). */
  type: z.string().min(1),
  customer: customerSchema,
  channel: channelSchema,
  transaction: transactionSchema,
  /** Spec: "system | string | Name of the client system that sends the event". */
  system: z.string().min(1),
  /** Spec: "systemVersion | string | Version of the client system that sends the event". */
  systemVersion: z.string().min(1),
});

/**
 * The production service's documented requirements (shared/notes/real-service.md): `type`, `customer.email`,
 * `channel.id` and `transaction.reference` are required; the other documented fields are optional but typed.
 */
export const productionEventSchema = completeEventSchema
  .extend({ transaction: transactionSchema.partial({ date: true }) })
  .partial({ system: true, systemVersion: true });

/** Only what the spec itself says: no field is known to be required, but a present field must have its documented form. */
export const lenientEventSchema = completeEventSchema
  .extend({
    customer: customerSchema.partial(),
    channel: channelSchema.partial(),
    transaction: transactionSchema.partial(),
  })
  .partial();

/**
 * How strictly an event is validated, since the spec does not say which fields are required:
 * - `complete`: every documented field required (the generator's output);
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
