/** A stream that may be a terminal: Node's tty.WriteStream has both fields, a run's part output passes them on. */
export type MaybeTerminal = NodeJS.WritableStream & {
  readonly isTTY?: boolean | undefined;
  readonly columns?: number | undefined;
};

/** In a log (CI, a pipe, a file), progress gets at most one line this often: the verdict must not drown in it. */
export const LOG_PROGRESS_EVERY_MS = 30_000;

/** Whether `stream` is a terminal, where a progress line can be rewritten in place. */
export function isTerminal(stream: MaybeTerminal): boolean {
  return stream.isTTY === true;
}

/**
 * `line` cut to `columns` characters, ending in "…" when cut: a terminal wraps a longer line, and rewriting it in
 * place would then leave its wrapped rows behind.
 */
export function fitToWidth(line: string, columns: number): string {
  const chars = [...line];
  if (chars.length <= columns) return line;
  return `${chars.slice(0, Math.max(0, columns - 1)).join("")}…`;
}

/**
 * Progress on a stream: on a terminal, one line rewritten in place and cut to the terminal's width (less one column,
 * so the cursor never wraps); in a log, a plain line at most every LOG_PROGRESS_EVERY_MS, the first at once.
 */
export class ProgressLine {
  readonly #stream: MaybeTerminal;
  readonly #terminal: boolean;
  readonly #now: () => number;
  readonly #everyMs: number;
  #lastLoggedAt: number | undefined;
  #shown = false;

  constructor(
    stream: MaybeTerminal,
    options: { readonly now?: () => number; readonly everyMs?: number } = {},
  ) {
    this.#stream = stream;
    this.#terminal = isTerminal(stream);
    this.#now = options.now ?? Date.now;
    this.#everyMs = options.everyMs ?? LOG_PROGRESS_EVERY_MS;
  }

  show(line: string): void {
    if (this.#terminal) {
      const columns = this.#stream.columns;
      const fitted = columns !== undefined && columns > 1 ? fitToWidth(line, columns - 1) : line;
      this.#stream.write(`\r\x1b[2K${fitted}`);
      this.#shown = true;
      return;
    }
    const now = this.#now();
    if (this.#lastLoggedAt !== undefined && now - this.#lastLoggedAt < this.#everyMs) return;
    this.#lastLoggedAt = now;
    this.#stream.write(`${line}\n`);
  }

  /** Ends the terminal's progress line, so what follows starts on a line of its own. */
  end(): void {
    if (this.#terminal && this.#shown) this.#stream.write("\n");
    this.#shown = false;
  }
}
