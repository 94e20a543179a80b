/**
 * An oracle for secrets hidden in encodings, built on Node's own decoders (never the redactor's): every run of
 * base64 or base64url characters is decoded from each of its four character offsets, every run of hex digits from
 * both parities, percent-escapes and `+` as a form decodes them, and JSON string escapes; each decoding that is
 * text is decoded again, up to `depth` layers, and every layer is searched for the needle's bytes.
 */

const BASE64_RUN = /[A-Za-z0-9+/_-]{2,}=*/g;
const HEX_RUN = /[0-9a-fA-F]{2,}/g;
/** A character of text: not U+FFFD (bytes that were no UTF-8) and no control but tab and line breaks. */
const TEXT_CHAR = "[^\\ufffd\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f]";

type Decoder = (text: string) => Buffer[];

/** Each run from each offset, padded with zero bits to whole groups and set apart by a group of zero bytes. */
function base64Pieces(text: string): Buffer[] {
  const runs = [...text.matchAll(BASE64_RUN)].map(([run]) => run.replace(/=+$/, ""));
  if (runs.length === 0) return [];
  return [0, 1, 2, 3].map((offset) => {
    const groups = runs
      .filter((run) => run.length - offset >= 2)
      .map((run) => {
        const from = run.slice(offset);
        return `${from}${"A".repeat((4 - (from.length % 4)) % 4)}AAAA`;
      });
    // Node's base64 decoder reads the URL-safe alphabet too.
    return Buffer.from(groups.join(""), "base64");
  });
}

/** Each run from both parities, set apart by a zero byte. */
function hexPieces(text: string): Buffer[] {
  const runs = [...text.matchAll(HEX_RUN)].map(([run]) => run);
  if (runs.length === 0) return [];
  return [0, 1].map((parity) =>
    Buffer.from(
      runs
        .map((run) => `${run.slice(parity, parity + Math.floor((run.length - parity) / 2) * 2)}00`)
        .join(""),
      "hex",
    ),
  );
}

/** The value of an ASCII hex digit, or -1. */
function hexDigit(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

/** Percent-escapes as bytes, the rest as its UTF-8; `form` reads `+` as a space too. */
function percentPieces(form: boolean): Decoder {
  return (text) => {
    if (!text.includes("%") && !(form && text.includes("+"))) return [];
    const source = Buffer.from(text);
    const out = Buffer.alloc(source.length);
    let length = 0;
    for (let i = 0; i < source.length; i += 1) {
      const byte = source[i] as number;
      const high = hexDigit(source[i + 1] ?? 0);
      const low = hexDigit(source[i + 2] ?? 0);
      if (byte === 0x25 && high >= 0 && low >= 0) {
        out[length++] = high * 16 + low;
        i += 2;
      } else out[length++] = form && byte === 0x2b ? 0x20 : byte;
    }
    return [out.subarray(0, length)];
  };
}

/** JSON string escapes, read by JSON.parse one escape at a time. */
function jsonPieces(text: string): Buffer[] {
  if (!text.includes("\\")) return [];
  const decoded = text.replace(/\\(?:u[0-9a-fA-F]{4}|["\\/bfnrt])/g, (sequence) => {
    try {
      return JSON.parse(`"${sequence}"`) as string;
    } catch {
      return sequence;
    }
  });
  return [Buffer.from(decoded)];
}

const DECODERS: ReadonlyArray<readonly [string, Decoder]> = [
  ["base64", base64Pieces],
  ["hex", hexPieces],
  ["percent", percentPieces(false)],
  ["form", percentPieces(true)],
  ["json", jsonPieces],
];

/**
 * The decoding chains ("base64 > percent") under which one of `needles` shows in `content`, the content as it is
 * included ("raw"); empty when none shows anywhere.
 */
export function decodedHits(content: string, needles: readonly string[], depth = 3): string[] {
  const wanted = needles.filter((needle) => needle !== "").map((needle) => Buffer.from(needle));
  // Text shorter than every needle cannot hold one, however it is decoded further.
  const shortest = Math.min(...needles.filter((needle) => needle !== "").map((needle) => needle.length));
  const stretch = new RegExp(`${TEXT_CHAR}{${shortest},}`, "gu");
  const hits = new Set<string>();
  const look = (bytes: Buffer, chain: string) => {
    if (wanted.some((needle) => bytes.includes(needle))) hits.add(chain);
  };
  look(Buffer.from(content), "raw");
  const seen = new Set<string>([content]);
  let layer: Array<readonly [string, string]> = [["", content]];
  for (let level = 1; level <= depth && layer.length > 0; level += 1) {
    const next: Array<readonly [string, string]> = [];
    for (const [chain, text] of layer) {
      for (const [name, decode] of DECODERS) {
        const named = chain === "" ? name : `${chain} > ${name}`;
        const pieces = decode(text);
        if (pieces.length === 0) continue;
        for (const piece of pieces) look(piece, named);
        // Read on only what is text: stretches without bytes that are no UTF-8 (U+FFFD) or controls, long enough.
        const texts = pieces.flatMap((piece) => piece.toString("utf8").match(stretch) ?? []).join("\n");
        // A text reached by another chain (or decoding to itself) is read once.
        if (texts !== "" && !seen.has(texts)) {
          seen.add(texts);
          next.push([named, texts]);
        }
      }
    }
    layer = next;
  }
  return [...hits];
}
