/**
 * Event bodies as pre-serialised JSON split around the two per-iteration fields, so a VU builds a body with two
 * string concatenations instead of a parse and a stringify: `before + reference + between + date + after`.
 */
export type EventTemplate = readonly [before: string, between: string, after: string];

export const EVENT_TEMPLATE_FORMAT = "event-templates/v1";

export interface EventTemplateFile {
  readonly format: typeof EVENT_TEMPLATE_FORMAT;
  readonly runId: string;
  readonly templates: readonly EventTemplate[];
}

const REFERENCE_SLOT = "@@EH_REFERENCE@@";
const DATE_SLOT = "@@EH_DATE@@";

interface EventLike {
  readonly transaction: { readonly reference: string; readonly date?: string | undefined } & Readonly<
    Record<string, unknown>
  >;
  readonly [field: string]: unknown;
}

/** Turns one generated event into a template: reference first, then date, then the transaction's other fields. */
export function toEventTemplate(event: EventLike): EventTemplate {
  return toSuffixedEventTemplate(event, "");
}

/**
 * toEventTemplate, with `referenceSuffix` (JSON-escaped in the template) after the per-iteration reference, so a
 * generated reference part (quotes, unicode) is kept while the reference stays unique.
 */
export function toSuffixedEventTemplate(event: EventLike, referenceSuffix: string): EventTemplate {
  const { reference: _reference, date: _date, ...rest } = event.transaction;
  const json = JSON.stringify({
    ...event,
    transaction: { reference: `${REFERENCE_SLOT}${referenceSuffix}`, date: DATE_SLOT, ...rest },
  });
  const referenceAt = json.indexOf(`"${REFERENCE_SLOT}`);
  const dateAt = json.indexOf(`"${DATE_SLOT}"`);
  if (referenceAt === -1 || dateAt === -1 || json.indexOf(REFERENCE_SLOT, referenceAt + 2) !== -1) {
    throw new Error("event template slots not found (a field value contains a slot marker?)");
  }
  return [
    json.slice(0, referenceAt + 1),
    json.slice(referenceAt + 1 + REFERENCE_SLOT.length, dateAt + 1),
    json.slice(dateAt + 1 + DATE_SLOT.length),
  ];
}

/**
 * A unique transaction.reference: the VU's test-wide id (unique across distributed k6 instances too), its own
 * iteration counter and the event's index within the iteration.
 */
export function eventReference(
  runId: string,
  vuIdInTest: number,
  iterationInVu: number,
  indexInIteration: number,
): string {
  return `${runId}-${vuIdInTest}-${iterationInVu}-${indexInIteration}`;
}

/** Builds the JSON body; reference and date are plain ASCII (run id pattern, ISO date), so no escaping is needed. */
export function assembleEventBody(template: EventTemplate, reference: string, isoDate: string): string {
  return template[0] + reference + template[1] + isoDate + template[2];
}
