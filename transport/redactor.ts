import { UndecidableError } from "../core/index.ts";
import type { TextView } from "./text-views.ts";
import { decodedViews, MIN_BINARY_TEXT } from "./text-views.ts";
import { TOKEN_RUN, TokenIndex } from "./token-index.ts";
import { basicCredentials } from "./token-request-body.ts";
import { inertText } from "./untrusted-text.ts";

export { TOKEN_RUN } from "./token-index.ts";

/** Compact JWS/JWT (and fragments of one, e.g. truncated or re-encoded probes): header.payload[.signature]. */
const JWT_LIKE = /\beyJ[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*)?/g;
/**
 * The longest token the harness hides, and so accepts: a longer one is refused (its check is ERROR), since no
 * Authorization header a real deployment accepts carries one (servers take 8 to 16 KiB of headers by default).
 */
export const MAX_TOKEN_CHARS = 64 * 1024;
/** The characters of distinct tokens one redactor hides at most, about 4 bytes each: a run's memory stays bounded. */
export const MAX_TOKEN_TEXT_CHARS = 32 * 1024 * 1024;
/** How many characters of text one character of a needle may take once encoded, for the search past a cut. */
const ENCODED_CHARS_PER_CHAR = 64;

interface Span {
  readonly start: number;
  readonly end: number;
  readonly placeholder: string;
}

/** Standard and URL-safe base64, padded and not: the longer match wins, so no `=` is left behind. */
function base64Forms(text: string): string[] {
  const padded = Buffer.from(text).toString("base64");
  const urlSafe = padded.replaceAll("+", "-").replaceAll("/", "_");
  return [padded, padded.replace(/=+$/, ""), urlSafe, urlSafe.replace(/=+$/, "")];
}

const count = (value: number) => value.toLocaleString("en-US");

/** What stands for a text with more distinct decodings than redaction reads (MAX_VIEWS): none of it is shown. */
export const UNSEARCHABLE = "<NOT SHOWN: decodes more ways than redaction reads>";

/**
 * Hides known secrets and tokens in text a request or a target's answer carried. Text is matched as sent and as
 * each decoding a server may have applied to an echo, in any order and repeated until nothing decodes further
 * (text-views.ts: JSON escapes incl. `\/` and `\uXXXX`, percent- and form-encoding, `\xHH`, hex, and base64 or
 * base64url at every alignment), so no encoding shows a secret; the harness's own words never pass through here.
 * A secret is hidden at any length as text (in evidence an over-eager match costs readability, a missed one a
 * credential), and from MIN_BINARY_TEXT characters on inside hex and base64, where shorter is chance.
 */
export class Redactor {
  readonly #literals = new Map<string, string>();
  /** The fewest UTF-8 bytes a needle looked for inside hex and base64 has: shorter pieces need not be read. */
  #binaryNeedleBytes = Number.POSITIVE_INFINITY;
  readonly #tokens = new TokenIndex();
  readonly #maxTokenChars: number;
  readonly #maxTokenTextChars: number;
  #longestLiteral = 0;

  /** `limits` lower MAX_TOKEN_CHARS and MAX_TOKEN_TEXT_CHARS, for a test that reaches them without megabytes. */
  constructor(limits: { readonly tokenChars?: number; readonly tokenTextChars?: number } = {}) {
    this.#maxTokenChars = Math.min(limits.tokenChars ?? MAX_TOKEN_CHARS, MAX_TOKEN_CHARS);
    this.#maxTokenTextChars = Math.min(limits.tokenTextChars ?? MAX_TOKEN_TEXT_CHARS, MAX_TOKEN_TEXT_CHARS);
  }

  /** Registers a secret to hide behind `placeholder` (e.g. `<CLIENT_SECRET>`) wherever it appears whole. */
  add(value: string, placeholder: string): this {
    if (value === "") return this;
    // inertText runs before redaction, so a secret holding a control character is looked for as it shows.
    for (const form of [value, inertText(value)]) {
      this.#literals.set(form, placeholder);
      this.#longestLiteral = Math.max(this.#longestLiteral, form.length);
      if (form.length >= MIN_BINARY_TEXT)
        this.#binaryNeedleBytes = Math.min(this.#binaryNeedleBytes, Buffer.byteLength(form));
    }
    return this;
  }

  /** Registers HTTP Basic credentials: the base64 (standard and URL-safe) of `id:secret`, raw or encoded. */
  addBasic(clientId: string, clientSecret: string): this {
    const form = Buffer.from(basicCredentials(clientId, clientSecret), "base64").toString("utf8");
    const uri = `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`;
    for (const pair of [`${clientId}:${clientSecret}`, form, uri]) {
      for (const value of base64Forms(pair)) this.add(value, "<BASIC_CREDENTIALS>");
    }
    return this;
  }

  /**
   * Registers the further token request fields (`--token-param`), often API keys or client assertions: each value,
   * raw and base64-encoded, hides behind `<TOKEN_PARAM:name>`.
   */
  addTokenParams(params: Readonly<Record<string, string>> | undefined): this {
    for (const [name, value] of Object.entries(params ?? {})) {
      this.addWithBase64(value, `<TOKEN_PARAM:${inertText(name)}>`);
    }
    return this;
  }

  /** add(), and the value's base64 (standard and URL-safe, padded or not) hidden too. */
  addWithBase64(value: string, placeholder: string): this {
    if (value === "") return this;
    this.add(value, placeholder);
    for (const form of base64Forms(value)) this.add(form, placeholder);
    return this;
  }

  /**
   * Why this redactor cannot hide `token`: longer than MAX_TOKEN_CHARS, or past what one redactor hides in all
   * (MAX_TOKEN_TEXT_CHARS); undefined when it can. Said as the end of a sentence about the token.
   */
  tokenRefusal(token: string): string | undefined {
    if (token.length > this.#maxTokenChars) {
      return `has ${count(token.length)} characters, more than the ${count(this.#maxTokenChars)} the harness can hide in its reports`;
    }
    if (!this.#tokens.has(token) && this.#tokens.chars + token.length > this.#maxTokenTextChars) {
      return `would take the tokens this run hides past ${count(this.#maxTokenTextChars)} characters, the most the harness keeps to hide them`;
    }
    return undefined;
  }

  /**
   * Registers an access token: any TOKEN_RUN characters of it in a row are hidden, so a cut token is too. A token
   * tokenRefusal() refuses is never shown half-hidden: it throws UndecidableError (could not decide).
   */
  addToken(token: string, placeholder: string): this {
    if (token === "") return this;
    if (token.length <= TOKEN_RUN) return this.add(token, placeholder);
    const refusal = this.tokenRefusal(token);
    if (refusal !== undefined) throw new UndecidableError(`a token the target issued ${refusal}`);
    this.#tokens.add(token, placeholder);
    this.#binaryNeedleBytes = Math.min(this.#binaryNeedleBytes, TOKEN_RUN);
    return this;
  }

  /** Text a target sent or a request carried, made safe to show: controls made visible, secrets and tokens hidden. */
  untrusted(text: string): string {
    return this.#redact(inertText(text), Number.POSITIVE_INFINITY).text;
  }

  /**
   * untrusted() of the first `limit` characters only, for a quote of a body that may be a megabyte: the work stays
   * bounded, and a secret or token that starts before the cut is still hidden whole.
   */
  untrustedPrefix(text: string, limit: number): { readonly text: string; readonly cut: boolean } {
    return this.#redact(inertText(text), limit);
  }

  /** Replaces every secret and token in `text` (a value, never a serialised document) by its placeholder. */
  redact(text: string): string {
    return this.#redact(text, Number.POSITIVE_INFINITY).text;
  }

  #redact(text: string, limit: number): { readonly text: string; readonly cut: boolean } {
    const cut = text.length > limit;
    // Past the cut, only as much as the longest encoded match could reach back over it is searched.
    const window = cut ? text.slice(0, limit + this.#reach()) : text;
    const end = Math.min(limit, window.length);
    const spans: Span[] = [];
    // Inside hex and base64, a JWT is looked for from its first 8 characters, as a token is.
    const binaryBytes = Math.min(this.#binaryNeedleBytes, TOKEN_RUN);
    const views = window === "" ? [] : decodedViews(window, binaryBytes);
    // A text that cannot be searched whole is not shown at all.
    if (views === undefined) return { text: UNSEARCHABLE, cut };
    for (const view of views) this.#find(view, spans);
    spans.sort((a, b) => a.start - b.start || b.end - a.end);
    let out = "";
    let at = 0;
    for (const span of spans) {
      if (span.start >= end) break;
      if (span.end <= at) continue;
      if (span.start >= at) out += window.slice(at, span.start) + span.placeholder;
      at = span.end;
    }
    return { text: out + window.slice(at, Math.max(at, end)), cut };
  }

  /** How far one match can reach in the text: the longest needle, each character at its longest encoding. */
  #reach(): number {
    return ENCODED_CHARS_PER_CHAR * Math.max(TOKEN_RUN, this.#longestLiteral) + 1;
  }

  #find(view: TextView, spans: Span[]): void {
    const add = (from: number, to: number, placeholder: string) =>
      spans.push({ start: view.start(from), end: view.end(to - 1), placeholder });
    const { text } = view;
    for (const [value, placeholder] of this.#literals) {
      // Bytes decoded from hex or base64 hold any short string by chance.
      if (view.binary && value.length < MIN_BINARY_TEXT) continue;
      for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1)) {
        add(at, at + value.length, placeholder);
      }
    }
    for (const run of this.#tokens.find(text)) add(run.start, run.end, run.placeholder);
    // After the known tokens, which keep their own placeholder where a JWT match covers the same text.
    for (const match of text.matchAll(JWT_LIKE))
      add(match.index, match.index + match[0].length, "<ACCESS_TOKEN>");
  }
}
