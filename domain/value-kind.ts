/** Makes a value a target sent safe to show (redacted and inert), for a message. */
export type QuoteValue = (value: unknown) => string;

/** What a JSON value is, in words, for a message: `a string ("300")`, `null`, `an object`, `the number 0.5`. */
export function valueKind(value: unknown, quote: QuoteValue): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `a string ("${quote(value)}")`;
  if (typeof value === "object") return "an object";
  return `${typeof value === "number" ? "the number" : `a ${typeof value}`} ${quote(value)}`;
}
