/** A text decoded one way, each of its characters mapped back to the span of the original it came from. */
export interface TextView {
  readonly text: string;
  /** Where character `i` of the view starts in the original text. */
  start(i: number): number;
  /** Where character `i` of the view ends (exclusive) in the original text. */
  end(i: number): number;
}

class MappedView implements TextView {
  constructor(
    readonly text: string,
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

const identity = (text: string): TextView => ({ text, start: (i) => i, end: (i) => i + 1 });

/** Builds a view of `source` from its decoded pieces, each covering source characters [from, to). */
class ViewBuilder {
  #text: string[] = [];
  #starts: number[] = [];
  #ends: number[] = [];
  #changed = false;

  constructor(private readonly source: TextView) {}

  push(decoded: string, from: number, to: number): void {
    if (to - from !== decoded.length || decoded !== this.source.text.slice(from, to)) this.#changed = true;
    for (let i = 0; i < decoded.length; i += 1) {
      this.#text.push(decoded[i] as string);
      this.#starts.push(this.source.start(from));
      this.#ends.push(this.source.end(to - 1));
    }
  }

  /** The view, or undefined when decoding changed nothing (the source view already covers it). */
  build(): TextView | undefined {
    if (!this.#changed) return undefined;
    return new MappedView(this.#text.join(""), Int32Array.from(this.#starts), Int32Array.from(this.#ends));
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
const HEX2 = /^[0-9a-fA-F]{2}$/;

/** JSON string escapes decoded: `\"`, `\\`, `\/` (PHP's), `\n`…, `\uXXXX` in either case. */
function jsonDecoded(source: TextView): TextView | undefined {
  const { text } = source;
  if (!text.includes("\\")) return undefined;
  const out = new ViewBuilder(source);
  let i = 0;
  while (i < text.length) {
    if (text[i] === "\\") {
      const next = text[i + 1] ?? "";
      const short = JSON_SHORT[next];
      if (short !== undefined) {
        out.push(short, i, i + 2);
        i += 2;
        continue;
      }
      const hex = text.slice(i + 2, i + 6);
      if (next === "u" && HEX4.test(hex)) {
        out.push(String.fromCharCode(Number.parseInt(hex, 16)), i, i + 6);
        i += 6;
        continue;
      }
    }
    out.push(text[i] as string, i, i + 1);
    i += 1;
  }
  return out.build();
}

/** The byte of a `%HH` at `i`, or undefined. */
function percentByte(text: string, i: number): number | undefined {
  if (text[i] !== "%") return undefined;
  const hex = text.slice(i + 1, i + 3);
  return HEX2.test(hex) ? Number.parseInt(hex, 16) : undefined;
}

/** The length of the UTF-8 sequence a lead byte starts (1 for ASCII), or 0 for a byte that starts none. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** Percent-encoding decoded as UTF-8, either case of hex; `+` read as a space too when `form`. */
function percentDecoded(source: TextView, form: boolean): TextView | undefined {
  const { text } = source;
  if (!text.includes("%") && !(form && text.includes("+"))) return undefined;
  const out = new ViewBuilder(source);
  let i = 0;
  while (i < text.length) {
    const lead = percentByte(text, i);
    if (lead !== undefined) {
      const length = sequenceLength(lead);
      const bytes = [lead];
      for (let k = 1; k < length; k += 1) {
        const byte = percentByte(text, i + 3 * k);
        if (byte === undefined || byte < 0x80 || byte > 0xbf) break;
        bytes.push(byte);
      }
      if (length > 0 && bytes.length === length) {
        out.push(new TextDecoder().decode(Uint8Array.from(bytes)), i, i + 3 * length);
        i += 3 * length;
        continue;
      }
    }
    out.push(form && text[i] === "+" ? " " : (text[i] as string), i, i + 1);
    i += 1;
  }
  return out.build();
}

/**
 * The text as sent and as each decoding a server may have applied when it echoed a value: JSON-escaped,
 * percent-encoded, form-encoded, and JSON inside a URL or a URL inside JSON. Views equal to another are left out.
 */
export function decodedViews(text: string): TextView[] {
  const raw = identity(text);
  const views: TextView[] = [raw];
  const keep = (view: TextView | undefined) => {
    if (view !== undefined) views.push(view);
    return view;
  };
  const json = keep(jsonDecoded(raw));
  for (const base of json === undefined ? [raw] : [raw, json]) {
    const percent = keep(percentDecoded(base, false));
    const form = keep(percentDecoded(base, true));
    if (base === raw) {
      if (percent !== undefined) keep(jsonDecoded(percent));
      if (form !== undefined) keep(jsonDecoded(form));
    }
  }
  return views;
}
