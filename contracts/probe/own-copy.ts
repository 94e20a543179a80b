/**
 * A string of its own with `text`'s code units: a plain slice (and anything concatenated to it) keeps the whole
 * text it came from alive in V8, so evidence kept for a run would hold every response body it cut. Copying through
 * UTF-16 code units keeps lone surrogates as they were.
 */
export function ownCopy(text: string): string {
  return Buffer.from(text, "utf16le").toString("utf16le");
}
