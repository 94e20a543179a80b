import { formatDuration } from "../../reporting/index.ts";

/**
 * The one deadline of a whole contract run: when it passes, every exchange still waiting is cut short and every
 * wait ends, so the run ends with a verdict and its reports. A deadline the user did not fix grows when a
 * sliding-expiry probe learns how long it must wait (the target's expires_in).
 */
export class RunDeadline {
  readonly #controller = new AbortController();
  readonly #startedAt: number;
  readonly #fixed: boolean;
  #at: number;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: { readonly startedAt: number; readonly budgetMs: number; readonly fixed: boolean }) {
    this.#startedAt = options.startedAt;
    this.#fixed = options.fixed;
    this.#at = options.startedAt + options.budgetMs;
    this.#arm();
  }

  /** Aborts, with the reason as an Error, when the deadline passes. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The run's whole allowance so far, from its start. */
  get budgetMs(): number {
    return this.#at - this.#startedAt;
  }

  /** Makes room until `at` (epoch ms) unless the user fixed the deadline; never shortens it. */
  extendTo(at: number): void {
    if (this.#fixed || at <= this.#at || this.#controller.signal.aborted) return;
    this.#at = at;
    this.#arm();
  }

  /** Ends the run now (Ctrl+C): every exchange still waiting is cut short with `reason`. */
  interrupt(reason: string): void {
    clearTimeout(this.#timer);
    if (!this.#controller.signal.aborted) this.#controller.abort(new Error(reason));
  }

  dispose(): void {
    clearTimeout(this.#timer);
  }

  #arm(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(
      () => {
        const how = this.#fixed ? "--run-timeout" : "derived from the profile and expires_in";
        this.#controller.abort(
          new Error(`the run's deadline of ${formatDuration(this.budgetMs)} (${how}) expired`),
        );
      },
      Math.max(0, this.#at - Date.now()),
    );
  }
}
