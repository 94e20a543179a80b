import type { CheckoutEvent, EventStrictness } from "../domain/index.ts";
import { EVENT_STRICTNESS } from "../domain/index.ts";
import type { JsonPath } from "./json-edit.ts";

/** One way to break a valid event, with what it breaks and where a validator should say so. */
export interface InvalidVariant {
  /** Kebab-case, stable: used on the command line and in reports. */
  readonly name: string;
  /** The rule the variant breaks, quoted from the spec (or the production notes) where possible. */
  readonly rule: string;
  /** Where the error is expected: every validation issue's path starts with it (`[]` is the whole body). */
  readonly path: JsonPath;
  /** The loosest strictness whose schema rejects the variant; every stricter one rejects it too. */
  readonly violates: EventStrictness;
  /** A new body made from `event`; the event itself is never modified. */
  apply(event: CheckoutEvent): unknown;
}

/** Whether the schema of `strictness` must reject the variant (EVENT_STRICTNESS lists the strictest first). */
export function isRejectedAt(
  variant: Pick<InvalidVariant, "violates">,
  strictness: EventStrictness,
): boolean {
  return EVENT_STRICTNESS.indexOf(strictness) <= EVENT_STRICTNESS.indexOf(variant.violates);
}
