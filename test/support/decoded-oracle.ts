/**
 * An oracle for secrets hidden in encodings, built on Node's own decoders (never the redactor's): every run of
 * base64 or base64url characters is decoded from each of its four character offsets, every run of hex digits from
 * both parities, percent-escapes and `+` as a form decodes them, and JSON string escapes; each decoding that is
 * text is decoded again, up to `depth` layers, and every layer is searched for the needle's bytes.
 */

const BASE64_RUN = /[A-Za-z0-9+/_-]{2,}=*/g;
const HEX_RUN = /[0-9a-fA-F]{2,}/g;

type Decoder = (text: string) => Buffer[];

function base64Pieces(text: string): Buffer[] {
  const out: Buffer[] = [];
  for (const [run] of text.matchAll(BASE64_RUN)) {
    for (let offset = 0; offset < 4 && run.length - offset >= 2; offset += 1) {
      // Node's base64 decoder reads the URL-safe alphabet too.
      out.push(Buffer.from(run.slice(offset), "base64"));
    }
  }
  return out;
}

function hexPieces(text: string): Buffer[] {
  const out: Buffer[] = [];
  for (const [run] of text.matchAll(HEX_RUN)) {
    for (const parity of [0, 1]) {
      const even = run.slice(parity, parity + Math.floor((run.length - parity) / 2) * 2);
      if (even.length > 0) out.push(Buffer.from(even, "hex"));
    }
  }
  return out;
}

/** Percent-escapes as bytes, the rest as its UTF-8; `form` reads `+` as a space too. */
function percentPieces(form: boolean): Decoder {
  return (text) => {
    if (!text.includes("%") && !(form && text.includes("+"))) return [];
    const bytes: number[] = [];
    for (let i = 0; i < text.length; ) {
      const hex = text.slice(i + 1, i + 3);
      if (text[i] === "%" && /^[0-9a-fA-F]{2}$/.test(hex)) {
        bytes.push(Number.parseInt(hex, 16));
        i += 3;
        continue;
      }
      const code = text.codePointAt(i) ?? 0;
      const char = String.fromCodePoint(code);
      bytes.push(...Buffer.from(form && char === "+" ? " " : char));
      i += char.length;
    }
    return [Buffer.from(bytes)];
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

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The piece as text when it is UTF-8, else undefined: binary pieces are searched but decoded no further. */
function textOf(piece: Buffer): string | undefined {
  try {
    return UTF8.decode(piece);
  } catch {
    return undefined;
  }
}

/**
 * The decoding chains ("base64 > percent") under which `needle` shows in `content`, the content as it is included
 * ("raw"); empty when it shows nowhere.
 */
export function decodedHits(content: string, needles: readonly string[], depth = 3): string[] {
  const wanted = needles.filter((needle) => needle !== "").map((needle) => Buffer.from(needle));
  const hits = new Set<string>();
  const look = (piece: Buffer, chain: string) => {
    if (wanted.some((needle) => piece.includes(needle))) hits.add(chain);
  };
  look(Buffer.from(content), "raw");
  const seen = new Set<string>([content]);
  let layer: Array<readonly [string, string]> = [["", content]];
  for (let level = 1; level <= depth && layer.length > 0; level += 1) {
    const next: Array<readonly [string, string]> = [];
    for (const [chain, text] of layer) {
      for (const [name, decode] of DECODERS) {
        const named = chain === "" ? name : `${chain} > ${name}`;
        for (const piece of decode(text)) {
          look(piece, named);
          const asText = textOf(piece);
          // Only text worth reading on is decoded further; a short run is noise at every offset.
          if (asText !== undefined && piece.length >= 4 && !seen.has(asText)) {
            seen.add(asText);
            next.push([named, asText]);
          }
        }
      }
    }
    layer = next;
  }
  return [...hits];
}
