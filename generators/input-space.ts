import fc from "fast-check";
import type { EventInput } from "./event-mutations.ts";
import {
  dateViolationArbitrary,
  silentInputArbitrary,
  structureInputArbitrary,
  typeViolationArbitrary,
  validInputArbitrary,
} from "./event-mutations.ts";
import type { FormField, TokenFormInput } from "./token-form-mutations.ts";
import { renderTokenForm, tokenFormPlanArbitrary } from "./token-form-mutations.ts";
import type { WideEventOptions } from "./wide-event.ts";
import { REFERENCE_STEM_SLOT } from "./wide-event.ts";

/** Every family of inputs the property-based contract checks draw from, for one target's channels. */
export interface InputSpaceArbitraries {
  readonly referenceSlot: string;
  readonly valid: fc.Arbitrary<EventInput>;
  readonly silent: fc.Arbitrary<EventInput>;
  readonly types: fc.Arbitrary<EventInput>;
  readonly dates: fc.Arbitrary<EventInput>;
  tokenForms(fields: readonly FormField[], secrets: ReadonlySet<string>): fc.Arbitrary<TokenFormInput>;
}

export function createInputSpace(options: WideEventOptions = {}): InputSpaceArbitraries {
  return {
    referenceSlot: REFERENCE_STEM_SLOT,
    valid: validInputArbitrary(options),
    // Inputs the spec is silent on come three times as often as bodies that are not a JSON event at all.
    silent: fc.oneof(
      { arbitrary: silentInputArbitrary(options), weight: 3 },
      { arbitrary: structureInputArbitrary(options), weight: 1 },
    ),
    types: typeViolationArbitrary(options),
    dates: dateViolationArbitrary(options),
    tokenForms: (fields, secrets) =>
      tokenFormPlanArbitrary.map((plan) => renderTokenForm(plan, fields, secrets)),
  };
}
