/** A text decoded one way, each of its characters mapped back to the span of the original it came from. */
export interface TextView {
  readonly text: string;
  /** Decoded through hex or base64 on the way: bytes that happen to be text, where a short needle means nothing. */
  readonly binary: boolean;
  /** Where character `i` of the view starts in the original text. */
  start(i: number): number;
  /** Where character `i` of the view ends (exclusive) in the original text. */
  end(i: number): number;
}

/** How many decodings deep a text is read: `%2525…` three times and then a form is four. */
export const MAX_DECODING_DEPTH = 6;
/**
 * Hex and base64 decode to bytes; fewer than this many in a row that are text are chance, not an encoding. A reader
 * looking for longer needles only asks for longer pieces (decodedViews' `minBytes`), which noise almost never has.
 */
export const MIN_BINARY_TEXT = 4;
/**
 * Distinct decodings read of one text at most. Ordinary text has a handful; one with more is built to bury an
 * encoding under decoys, and is not shown (decodedViews returns undefined).
 */
export const MAX_VIEWS = 64;

class MappedView implements TextView {
  constructor(
    readonly text: string,
    readonly binary: boolean,
    private readonly starts: Int32Array,
    private readonly ends: Int32Array,
  ) {}

  start(i: number): number {
    return this.starts[i] ?? 0;
  }

  end(i: number): number {
    return this.ends[i] ?? 0;
  }
}

const identity = (text: string): TextView => ({ text, binary: false, start: (i) => i, end: (i) => i + 1 });

const EMPTY = new Int32Array(0);

/** Builds a view of `source` from its decoded pieces, each mapped to a span of the original text. */
class ViewBuilder {
  readonly #parts: string[] = [];
  #starts = EMPTY;
  #ends = EMPTY;
  #length = 0;
  #changed = false;

  constructor(
    private readonly source: TextView,
    private readonly binary = source.binary,
  ) {}

  /** Source characters [from, to) as they are. */
  copy(from: number, to: number): void {
    if (to <= from) return;
    this.#parts.push(this.source.text.slice(from, to));
    this.#room(to - from);
    for (let i = from; i < to; i += 1) {
      this.#starts[this.#length] = this.source.start(i);
      this.#ends[this.#length] = this.source.end(i);
      this.#length += 1;
    }
  }

  /** Decoded text that stands for source characters [from, to). */
  push(decoded: string, from: number, to: number): void {
    this.pushSpan(decoded, this.source.start(from), this.source.end(to - 1));
  }

  /** Decoded text that stands for the original's [start, end). */
  pushSpan(decoded: string, start: number, end: number): void {
    this.#changed = true;
    this.#parts.push(decoded);
    this.#room(decoded.length);
    for (let i = 0; i < decoded.length; i += 1) {
      this.#starts[this.#length] = start;
      this.#ends[this.#length] = end;
      this.#length += 1;
    }
  }

  /** How many characters the view has so far. */
  get length(): number {
    return this.#length;
  }

  #room(more: number): void {
    if (this.#length + more <= this.#starts.length) return;
    const size = Math.max(this.#starts.length * 2, this.#length + more, 64);
    const starts = new Int32Array(size);
    const ends = new Int32Array(size);
    starts.set(this.#starts.subarray(0, this.#length));
    ends.set(this.#ends.subarray(0, this.#length));
    this.#starts = starts;
    this.#ends = ends;
  }

  /** The view, or undefined when decoding changed nothing (the source view already covers it). */
  build(): TextView | undefined {
    if (!this.#changed || this.#length === 0) return undefined;
    return new MappedView(
      this.#parts.join(""),
      this.binary,
      this.#starts.slice(0, this.#length),
      this.#ends.slice(0, this.#length),
    );
  }
}

const JSON_SHORT: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};
const HEX4 = /^[0-9a-fA-F]{4}$/;

/** The value of a hex digit, or -1. */
function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/** JSON string escapes decoded: `\"`, `\\`, `\/` (PHP's), `\n`…, `\uXXXX` in either case. */
function jsonDecoded(source: TextView): TextView | undefined {
  const { text } = source;
  let at = text.indexOf("\\");
  if (at < 0) return undefined;
  const out = new ViewBuilder(source);
  let copied = 0;
  for (; at >= 0 && at < text.length; at = text.indexOf("\\", at)) {
    const next = text[at + 1] ?? "";
    const short = JSON_SHORT[next];
    const hex = text.slice(at + 2, at + 6);
    const width = short !== undefined ? 2 : next === "u" && HEX4.test(hex) ? 6 : 0;
    if (width === 0) {
      at += 1;
      continue;
    }
    out.copy(copied, at);
    out.push(short ?? String.fromCharCode(Number.parseInt(hex, 16)), at, at + width);
    at += width;
    copied = at;
  }
  out.copy(copied, text.length);
  return out.build();
}

/** The length of the UTF-8 sequence a lead byte starts (1 for ASCII), or 0 for a byte that starts none. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** The range the second byte of a sequence must be in, which rules out overlong forms and surrogates. */
function secondByteRange(lead: number): readonly [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return [0x80, 0xbf];
}

/**
 * The UTF-8 sequence at `bytes[at…]` as one number, its code point times 8 plus its length (no tuple for every byte
 * of a text), or -1 when it is not one.
 */
function utf8At(bytes: ArrayLike<number>, at: number, count: number): number {
  const lead = bytes[at] ?? 0;
  if (lead < 0x80) return at < count ? lead * 8 + 1 : -1;
  const length = sequenceLength(lead);
  if (length === 0 || at + length > count) return -1;
  const [low, high] = secondByteRange(lead);
  let code = lead & (0xff >> (length + 1));
  for (let k = 1; k < length; k += 1) {
    const byte = bytes[at + k] ?? 0;
    if (byte < (k === 1 ? low : 0x80) || byte > (k === 1 ? high : 0xbf)) return -1;
    code = (code << 6) | (byte & 0x3f);
  }
  return code * 8 + length;
}

/** A byte escape `%HH` or `\xHH` at `i` (the prefix's length tells which), or -1. */
function escapedByte(text: string, i: number, prefix: string): number {
  if (!text.startsWith(prefix, i)) return -1;
  const high = hexValue(text.charCodeAt(i + prefix.length));
  const low = hexValue(text.charCodeAt(i + prefix.length + 1));
  return high < 0 || low < 0 ? -1 : high * 16 + low;
}

/**
 * Byte escapes decoded as UTF-8: `%HH` (percent-encoding; `+` read as a space too when `form`) or `\xHH` (as C,
 * Python and JavaScript write bytes), either case of hex. An escape that is no UTF-8 stays as it is.
 */
function bytesDecoded(source: TextView, prefix: "%" | "\\x", form = false): TextView | undefined {
  const { text } = source;
  const next = (from: number) => {
    const escaped = text.indexOf(prefix, from);
    const plus = form ? text.indexOf("+", from) : -1;
    return escaped < 0 ? plus : plus < 0 ? escaped : Math.min(escaped, plus);
  };
  let at = next(0);
  if (at < 0) return undefined;
  const width = prefix.length + 2;
  const out = new ViewBuilder(source);
  const bytes: number[] = [];
  let copied = 0;
  for (; at >= 0; at = next(at)) {
    if (text[at] === "+") {
      out.copy(copied, at);
      out.push(" ", at, at + 1);
      copied = at += 1;
      continue;
    }
    bytes.length = 0;
    for (let from = at; bytes.length < 4; from += width) {
      const byte = escapedByte(text, from, prefix);
      if (byte < 0) break;
      bytes.push(byte);
    }
    const sequence = bytes.length > 0 ? utf8At(bytes, 0, bytes.length) : -1;
    if (sequence < 0) {
      at += 1;
      continue;
    }
    const code = sequence >> 3;
    const length = sequence & 7;
    out.copy(copied, at);
    out.push(String.fromCodePoint(code), at, at + width * length);
    copied = at += width * length;
  }
  out.copy(copied, text.length);
  return out.build();
}

/** Room for the bytes one decoded run gives, with the original span of each: one, grown as needed, for all. */
class ByteRoom {
  bytes = new Uint8Array(1024);
  starts = new Int32Array(1024);
  ends = new Int32Array(1024);

  /** This room with space for `size` bytes. */
  fit(size: number): this {
    if (size > this.bytes.length) {
      this.bytes = new Uint8Array(size);
      this.starts = new Int32Array(size);
      this.ends = new Int32Array(size);
    }
    return this;
  }

  put(count: number, byte: number, start: number, end: number): void {
    this.bytes[count] = byte;
    this.starts[count] = start;
    this.ends[count] = end;
  }
}

// Decoding is synchronous and a run's bytes are used up before the next run: one room serves every decoding.
const ROOM = new ByteRoom();

/** utf8At() of a text character (no control but tab and line breaks), or -1. */
function textCharAt(bytes: Uint8Array, at: number, count: number): number {
  const sequence = utf8At(bytes, at, count);
  const code = sequence >> 3;
  if (sequence < 0 || (code < 0x20 ? code !== 0x09 && code !== 0x0a && code !== 0x0d : code === 0x7f))
    return -1;
  return sequence;
}

/**
 * The text pieces of `count` decoded bytes added to `out`, each a run of at least `minBytes` bytes of text
 * (textCharAt), apart by a NUL, each character mapped to the original span of its bytes.
 */
function addTextPieces(out: ViewBuilder, room: ByteRoom, count: number, minBytes: number): void {
  const { bytes, starts, ends } = room;
  let at = 0;
  while (at < count) {
    // Measure the piece first: most decoded bytes are noise, and nothing of a short piece is kept.
    let end = at;
    for (
      let sequence = textCharAt(bytes, end, count);
      sequence >= 0;
      sequence = textCharAt(bytes, end, count)
    ) {
      end += sequence & 7;
    }
    if (end - at >= minBytes) {
      // A NUL keeps pieces apart, so no match spans two of them; it takes no room in the original.
      if (out.length > 0) out.pushSpan("\u0000", starts[at] ?? 0, starts[at] ?? 0);
      while (at < end) {
        const sequence = textCharAt(bytes, at, count);
        const length = sequence & 7;
        out.pushSpan(String.fromCodePoint(sequence >> 3), starts[at] ?? 0, ends[at + length - 1] ?? 0);
        at += length;
      }
    }
    at = end + 1;
  }
}

/** The value of each ASCII character in base64 and base64url (both alphabets at once), or -1. */
const BASE64_VALUES = Int8Array.from({ length: 128 }, (_, code) => {
  const char = String.fromCharCode(code);
  const index = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".indexOf(char);
  return index >= 0 ? index : char === "-" ? 62 : char === "_" ? 63 : -1;
});

/** The value of a base64 or base64url character, or -1. */
function base64Value(code: number): number {
  return code < 128 ? (BASE64_VALUES[code] ?? -1) : -1;
}

/** Maximal runs of characters `digit` accepts, at least `least` long: [start, end) pairs. */
function runsOf(
  text: string,
  digit: (code: number) => number,
  least: number,
): Array<readonly [number, number]> {
  const runs: Array<readonly [number, number]> = [];
  let start = -1;
  for (let i = 0; i <= text.length; i += 1) {
    const inside = i < text.length && digit(text.charCodeAt(i)) >= 0;
    if (inside && start < 0) start = i;
    else if (!inside && start >= 0) {
      if (i - start >= least) runs.push([start, i]);
      start = -1;
    }
  }
  return runs;
}

/**
 * Every run of base64 or base64url characters decoded from each of its four offsets, so a value whose bytes sat at
 * any of the three byte alignments of a longer encoded stream is read whole; each byte maps to the two characters
 * that carry its bits. Only the bytes that are text are kept (addTextPieces).
 */
function base64Decoded(source: TextView, minBytes: number): TextView | undefined {
  const { text } = source;
  // Four characters carry three bytes: fewer than this many decode to fewer than `minBytes` at every offset.
  const runs = runsOf(text, base64Value, Math.ceil((minBytes * 4) / 3));
  if (runs.length === 0) return undefined;
  const out = new ViewBuilder(source, true);
  const room = ROOM.fit(Math.ceil((text.length * 3) / 4) + 3);
  for (const [runStart, runEnd] of runs) {
    for (let offset = 0; offset < 4; offset += 1) {
      let count = 0;
      for (let group = runStart + offset; group + 1 < runEnd; group += 4) {
        const v0 = base64Value(text.charCodeAt(group));
        const v1 = base64Value(text.charCodeAt(group + 1));
        const v2 = group + 2 < runEnd ? base64Value(text.charCodeAt(group + 2)) : -1;
        const v3 = group + 3 < runEnd ? base64Value(text.charCodeAt(group + 3)) : -1;
        room.put(count++, ((v0 << 2) | (v1 >> 4)) & 0xff, source.start(group), source.end(group + 1));
        if (v2 < 0) break;
        room.put(count++, ((v1 << 4) | (v2 >> 2)) & 0xff, source.start(group + 1), source.end(group + 2));
        if (v3 < 0) break;
        room.put(count++, ((v2 << 6) | v3) & 0xff, source.start(group + 2), source.end(group + 3));
      }
      addTextPieces(out, room, count, minBytes);
    }
  }
  return out.build();
}

/** Every run of hex digits decoded from both parities, either case; each byte maps to its two digits. */
function hexDecoded(source: TextView, minBytes: number): TextView | undefined {
  const { text } = source;
  const runs = runsOf(text, hexValue, 2 * minBytes);
  if (runs.length === 0) return undefined;
  const out = new ViewBuilder(source, true);
  const room = ROOM.fit(Math.ceil(text.length / 2) + 1);
  for (const [runStart, runEnd] of runs) {
    for (let parity = 0; parity < 2; parity += 1) {
      let count = 0;
      for (let at = runStart + parity; at + 1 < runEnd; at += 2) {
        const byte = hexValue(text.charCodeAt(at)) * 16 + hexValue(text.charCodeAt(at + 1));
        room.put(count++, byte, source.start(at), source.end(at + 1));
      }
      addTextPieces(out, room, count, minBytes);
    }
  }
  return out.build();
}

/** Each decoding a server may have applied to a value it echoed, undone once. */
const DECODINGS: ReadonlyArray<(source: TextView, minBytes: number) => TextView | undefined> = [
  jsonDecoded,
  (source) => bytesDecoded(source, "%"),
  (source) => bytesDecoded(source, "%", true),
  (source) => bytesDecoded(source, "\\x"),
  hexDecoded,
  base64Decoded,
];

/**
 * The text as sent and as every decoding a server may have applied when it echoed a value, in any order and
 * repeated, until nothing decodes further (MAX_DECODING_DEPTH deep at most): JSON string escapes, `%HH` and form
 * encoding, `\xHH`, hex and base64/base64url at every alignment. Hex and base64 are read only for pieces of text
 * of at least `minBytes` bytes (MIN_BINARY_TEXT at least). Views equal to another are left out. Undefined when
 * the text has more than MAX_VIEWS distinct decodings: it cannot be searched whole.
 */
export function decodedViews(text: string, minBytes: number = MIN_BINARY_TEXT): TextView[] | undefined {
  const raw = identity(text);
  const views: TextView[] = [raw];
  const seen = new Set<string>([text]);
  const least = Math.max(minBytes, MIN_BINARY_TEXT);
  let layer = [raw];
  for (let depth = 0; depth < MAX_DECODING_DEPTH && layer.length > 0; depth += 1) {
    const next: TextView[] = [];
    for (const view of layer) {
      for (const decode of DECODINGS) {
        const decoded = decode(view, least);
        if (decoded === undefined || seen.has(decoded.text)) continue;
        if (views.length >= MAX_VIEWS) return undefined;
        seen.add(decoded.text);
        views.push(decoded);
        next.push(decoded);
      }
    }
    layer = next;
  }
  return views;
}
