/** The API's answers nest three levels at most: past this depth a body is no answer of it, only work to parse. */
export const MAX_JSON_DEPTH = 64;
/**
 * The API's answers hold a few dozen values: past this many arrays, objects and elements a body is no answer of
 * it. Parsed, each costs up to a hundred bytes, so 1 MiB of `[[],[],…]` would take some 30 MB per response.
 */
export const MAX_JSON_ITEMS = 10_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
/** Bytes JSON allows outside strings besides brackets, commas and quotes: `:`, numbers, true, false, null. */
const SCALAR_BYTES = new Set([..."0123456789-+.eE:truefalsn"].map((char) => char.charCodeAt(0)));
const BOM = [0xef, 0xbb, 0xbf];

/**
 * Follows a body's JSON structure byte by byte as it arrives, before anything parses it, and says once it nests
 * deeper than MAX_JSON_DEPTH or holds more than MAX_JSON_ITEMS values. A body that is not JSON is let through: it
 * cannot parse, so it builds no structure. UTF-8 never puts an ASCII byte inside a multi-byte character, so the
 * bytes are read as they come.
 */
export class JsonShape {
  #offset = 0;
  #depth = 0;
  #items = 0;
  #started = false;
  #inString = false;
  #escaped = false;
  #notJson = false;

  /** Reads `chunk`; returns why the body is too complex to parse once it is, else undefined. */
  scan(chunk: Uint8Array): string | undefined {
    if (this.#notJson) return undefined;
    for (const byte of chunk) {
      this.#offset += 1;
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (byte === BACKSLASH) this.#escaped = true;
        else if (byte === QUOTE) this.#inString = false;
        continue;
      }
      if (WHITESPACE.has(byte)) continue;
      if (!this.#started && this.#offset <= BOM.length && byte === BOM[this.#offset - 1]) continue;
      if (OPENERS.has(byte)) {
        // A second top-level value makes the body no JSON at all.
        if (this.#depth === 0 && this.#started) return this.#giveUp();
        this.#depth += 1;
        this.#items += 1;
        if (this.#depth > MAX_JSON_DEPTH) return `response JSON nests deeper than ${MAX_JSON_DEPTH} levels`;
      } else if (CLOSERS.has(byte)) {
        if (this.#depth === 0) return this.#giveUp();
        this.#depth -= 1;
      } else if (byte === COMMA) {
        this.#items += 1;
      } else if (byte === QUOTE) {
        this.#inString = true;
      } else if (!SCALAR_BYTES.has(byte)) {
        return this.#giveUp();
      }
      this.#started = true;
      if (this.#items > MAX_JSON_ITEMS) return `response JSON holds more than ${MAX_JSON_ITEMS} values`;
    }
    return undefined;
  }

  #giveUp(): undefined {
    this.#notJson = true;
    return undefined;
  }
}
