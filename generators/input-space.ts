import { bodyClasses } from "./body-space.ts";
import { calendarClasses } from "./calendar-space.ts";
import { channelClasses } from "./channel-space.ts";
import { emailClasses } from "./email-space.ts";
import { envelopeClasses } from "./envelope-space.ts";
import type { EventInput } from "./event-input.ts";
import { TOKEN_SLOT } from "./event-input.ts";
import { dateClasses, silentClasses, typeClasses } from "./event-mutations.ts";
import type { InputClass } from "./input-class.ts";
import { jsonGrammarClasses } from "./json-grammar-space.ts";
import { stringClasses } from "./string-space.ts";
import type { TokenRequestShape } from "./token-classes.ts";
import { tokenFieldClasses, tokenFormClasses } from "./token-classes.ts";
import type { TokenFormInput } from "./token-form-mutations.ts";
import { validClasses } from "./valid-classes.ts";
import type { WideEventOptions } from "./wide-event.ts";
import { REFERENCE_STEM_SLOT } from "./wide-event.ts";

type EventClasses = readonly InputClass<EventInput>[];

/** Every class of every field's value space the property-based contract checks explore, for one target's channels. */
export interface InputSpaceClasses {
  readonly referenceSlot: string;
  readonly tokenSlot: string;
  readonly valid: EventClasses;
  readonly silent: EventClasses;
  readonly types: EventClasses;
  readonly dates: EventClasses;
  readonly email: EventClasses;
  readonly strings: EventClasses;
  readonly calendar: EventClasses;
  readonly channelId: EventClasses;
  readonly body: EventClasses;
  readonly envelope: EventClasses;
  readonly jsonGrammar: EventClasses;
  tokenForm(shape: TokenRequestShape, basicHeader?: string): readonly InputClass<TokenFormInput>[];
  tokenFields(shape: TokenRequestShape): readonly InputClass<TokenFormInput>[];
}

export function createInputSpace(options: WideEventOptions = {}): InputSpaceClasses {
  return {
    referenceSlot: REFERENCE_STEM_SLOT,
    tokenSlot: TOKEN_SLOT,
    valid: validClasses(options),
    silent: silentClasses(options),
    types: typeClasses(options),
    dates: dateClasses(options),
    email: emailClasses(options),
    strings: stringClasses(options),
    calendar: calendarClasses(options),
    channelId: channelClasses(options),
    body: bodyClasses(options),
    envelope: envelopeClasses(options),
    jsonGrammar: jsonGrammarClasses(options),
    tokenForm: tokenFormClasses,
    tokenFields: tokenFieldClasses,
  };
}
