import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";

/** An append-only NDJSON file of accepted events; writes are buffered by the stream and flushed on close. */
export class Journal {
  readonly #stream: WriteStream;
  #failure: Error | undefined;

  private constructor(stream: WriteStream) {
    this.#stream = stream;
    stream.on("error", (error) => {
      this.#failure ??= error;
    });
  }

  /** Opens (creating folders as needed) and fails now, not at the first event, when the file cannot be written. */
  static async open(path: string): Promise<Journal> {
    await mkdir(dirname(path), { recursive: true });
    const stream = createWriteStream(path, { flags: "a" });
    await Promise.race([
      once(stream, "open"),
      once(stream, "error").then(([error]) => {
        throw error;
      }),
    ]);
    return new Journal(stream);
  }

  /** Appends one line; `line` must be JSON without a line break. */
  append(line: string): void {
    if (this.#failure === undefined) this.#stream.write(`${line}\n`);
  }

  /** Flushes every line written so far and closes the file; rejects if any write failed. */
  async close(): Promise<void> {
    if (!this.#stream.writableEnded) {
      const finished = once(this.#stream, "close").catch(() => undefined);
      this.#stream.end();
      await finished;
    }
    if (this.#failure !== undefined) throw this.#failure;
  }
}
