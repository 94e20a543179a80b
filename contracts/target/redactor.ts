import { basicCredentials } from "./token-request-body.ts";

/** Compact JWS/JWT (and fragments of one, e.g. truncated or re-encoded probes): header.payload[.signature]. */
const JWT_LIKE = /\beyJ[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*)?/g;

/**
 * Scrubs known secrets from text before it leaves the process. Every secret is also matched in the encodings it
 * travels in (form/URL encoding, and base64 inside an HTTP Basic header), because evidence quotes raw requests.
 */
export class Redactor {
  readonly #replacements = new Map<string, string>();

  /** Registers a value to hide behind `placeholder` (e.g. `<CLIENT_SECRET>`); values shorter than 4 chars are ignored. */
  add(value: string, placeholder: string): this {
    if (value.length < 4) return this;
    this.#replacements.set(value, placeholder);
    this.#replacements.set(encodeURIComponent(value), placeholder);
    this.#replacements.set(new URLSearchParams({ v: value }).toString().slice(2), placeholder);
    return this;
  }

  /** Registers HTTP Basic credentials: the base64 of `id:secret` hides the secret too. */
  addBasic(clientId: string, clientSecret: string): this {
    const uri = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString(
      "base64",
    );
    const raw = Buffer.from(`${clientId}:${clientSecret}`).toString("base64");
    return this.add(basicCredentials(clientId, clientSecret), "<BASIC_CREDENTIALS>")
      .add(uri, "<BASIC_CREDENTIALS>")
      .add(raw, "<BASIC_CREDENTIALS>");
  }

  redact(text: string): string {
    let out = text;
    // Longest first, so a secret that contains another is replaced whole.
    const entries = [...this.#replacements].sort(([a], [b]) => b.length - a.length);
    for (const [value, placeholder] of entries) out = out.split(value).join(placeholder);
    return out.replace(JWT_LIKE, "<ACCESS_TOKEN>");
  }

  /** Redacts every string inside a JSON-like value, returning a copy. */
  redactDeep<T>(value: T): T {
    return JSON.parse(this.redact(JSON.stringify(value) ?? "null")) as T;
  }
}
