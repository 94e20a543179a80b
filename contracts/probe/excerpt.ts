/**
 * The first `maxChars` of `text`, as a string of its own: a plain slice (and anything concatenated to it) keeps the
 * whole text alive in V8, so evidence kept for a run would hold every response body it cut. Copying through
 * UTF-16 code units keeps lone surrogates as they were.
 */
export function excerpt(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return Buffer.from(text.slice(0, maxChars), "utf16le").toString("utf16le");
}
