import { ResponseTooLargeError } from "../../core/index.ts";
import { JsonShape } from "./json-shape.ts";

/** The spec's answers are a few hundred bytes: a body past 1 MiB is a broken or hostile target, cut off before it fills memory. */
export const MAX_RESPONSE_BODY_BYTES = 1024 * 1024;

/**
 * Counts one response body's bytes as they arrive and follows its JSON structure, and says once either passes the
 * cap: 1 MiB of nested arrays is within the byte cap but would take tens of MB once parsed.
 */
export class BodyCap {
  #bytes = 0;
  readonly #shape = new JsonShape();
  #exceeded: ResponseTooLargeError | undefined;

  constructor(readonly limitBytes: number = MAX_RESPONSE_BODY_BYTES) {}

  /** The error once the body passed the cap, else undefined. */
  get exceeded(): ResponseTooLargeError | undefined {
    return this.#exceeded;
  }

  /** Takes `chunk`, the next bytes of the body; returns the error when the body has now passed the cap. */
  add(chunk: Uint8Array): ResponseTooLargeError | undefined {
    if (this.#exceeded !== undefined) return this.#exceeded;
    this.#bytes += chunk.byteLength;
    if (this.#bytes > this.limitBytes) this.#exceeded = new ResponseTooLargeError(this.limitBytes);
    const shape = this.#exceeded === undefined ? this.#shape.scan(chunk) : undefined;
    if (shape !== undefined) this.#exceeded = new ResponseTooLargeError(this.limitBytes, shape);
    return this.#exceeded;
  }
}

/**
 * Reads a whole body (undici's, or any byte stream) as UTF-8 text, as undici's `body.text()` does, but throws
 * ResponseTooLargeError as soon as it passes the cap: leaving the loop destroys the stream, which ends the exchange.
 */
export async function readCappedText(
  body: AsyncIterable<Uint8Array>,
  cap: BodyCap = new BodyCap(),
): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) {
    const exceeded = cap.add(chunk);
    if (exceeded !== undefined) throw exceeded;
    chunks.push(chunk);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
