import { Writable } from "node:stream";

const PART_INDENT = "│ ";
const RECENT_LINES = 20;

/**
 * Forwards a part's output line by line, indented under the part's heading, so the run's own verdict is the only
 * one at the margin. Each part redacts what it prints itself: a pass here would eat the harness's own words.
 */
export class PartOutput extends Writable {
  #pending = "";
  /** The last lines written, so a part that could not decide can say why in the report. */
  readonly recent: string[] = [];

  constructor(private readonly target: NodeJS.WritableStream) {
    super({ decodeStrings: false });
  }

  #emit(clean: string): void {
    this.recent.push(...clean.split("\n").filter((line) => line.trim() !== ""));
    this.recent.splice(0, Math.max(0, this.recent.length - RECENT_LINES));
    this.target.write(clean.replace(/^/gm, PART_INDENT));
  }

  /** The part's own last word on an error (`event-harness: …`), if it printed one. */
  lastError(): string | undefined {
    const line = this.recent.findLast((candidate) => candidate.startsWith("event-harness: "));
    // "see above" points into the console, which the report does not have.
    return line?.slice("event-harness: ".length).replace(/[;,]? see (?:[\w ]+ )?above\.?$/, "");
  }

  override _write(
    chunk: Buffer | string,
    _encoding: BufferEncoding,
    done: (error?: Error | null) => void,
  ): void {
    this.#pending += chunk.toString();
    const end = this.#pending.lastIndexOf("\n");
    if (end !== -1) {
      this.#emit(this.#pending.slice(0, end + 1).replace(/\n$/, ""));
      this.target.write("\n");
      this.#pending = this.#pending.slice(end + 1);
    }
    done();
  }

  override _final(done: (error?: Error | null) => void): void {
    if (this.#pending !== "") {
      this.#emit(this.#pending);
      this.target.write("\n");
    }
    this.#pending = "";
    done();
  }
}

export function closed(stream: Writable): Promise<void> {
  return new Promise((resolve) => stream.end(resolve));
}
