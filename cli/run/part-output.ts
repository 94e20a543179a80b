import { Writable } from "node:stream";
import type { MaybeTerminal } from "../progress-line.ts";

const PART_INDENT = "│ ";
const RECENT_LINES = 20;
/** How a progress line that rewrites itself on a terminal starts (cli/progress-line.ts). */
const REWRITE = "\r\x1b[2K";

/**
 * Forwards a part's output line by line, indented under the part's heading, so the run's own verdict is the only
 * one at the margin. Each part redacts what it prints itself: a pass here would eat the harness's own words. On a
 * terminal it is one too, a little narrower, and passes a progress line that rewrites itself straight through.
 */
export class PartOutput extends Writable {
  #pending = "";
  /** A progress line is on the terminal, rewritten in place, with no newline yet. */
  #rewriting = false;
  /** The last lines written, so a part that could not decide can say why in the report. */
  readonly recent: string[] = [];
  readonly isTTY: boolean;
  readonly columns: number | undefined;

  constructor(private readonly target: MaybeTerminal) {
    super({ decodeStrings: false });
    this.isTTY = target.isTTY === true;
    this.columns = target.columns === undefined ? undefined : target.columns - PART_INDENT.length;
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
    let text = chunk.toString();
    if (this.isTTY && this.#pending === "" && text.startsWith(REWRITE) && !text.includes("\n")) {
      this.target.write(`${REWRITE}${PART_INDENT}${text.slice(REWRITE.length)}`);
      this.#rewriting = true;
      done();
      return;
    }
    if (this.#rewriting) {
      // The progress line ends here: its newline, or the next line's start, closes it.
      this.target.write("\n");
      this.#rewriting = false;
      if (text.startsWith("\n")) text = text.slice(1);
    }
    this.#pending += text;
    const end = this.#pending.lastIndexOf("\n");
    if (end !== -1) {
      this.#emit(this.#pending.slice(0, end + 1).replace(/\n$/, ""));
      this.target.write("\n");
      this.#pending = this.#pending.slice(end + 1);
    }
    done();
  }

  override _final(done: (error?: Error | null) => void): void {
    if (this.#rewriting) this.target.write("\n");
    this.#rewriting = false;
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
