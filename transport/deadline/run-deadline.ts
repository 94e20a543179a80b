import { formatDuration } from "../../core/index.ts";
import { MAX_STRETCHED_RUN_MS } from "./run-budget.ts";
import { timerDelay } from "./timer-delay.ts";

/**
 * The one deadline of a whole contract run: when it passes, every exchange still waiting is cut short and every
 * wait ends, so the run ends with a verdict and its reports. A deadline the user did not fix grows when a
 * sliding-expiry probe learns how long it must wait (the target's expires_in), up to MAX_STRETCHED_RUN_MS.
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

  /**
   * Makes room until `at` (epoch ms), stretching a deadline the user did not fix as far as MAX_STRETCHED_RUN_MS.
   * Returns why the run cannot last until `needed` (the least the caller can do with; default `at`), or undefined
   * once the deadline covers as much of `at` as it may; never shortens it.
   */
  reserve(at: number, needed: number = at): string | undefined {
    const limit = this.#fixed ? this.#at : Math.max(this.#at, this.#startedAt + MAX_STRETCHED_RUN_MS);
    if (needed > limit) {
      const how = this.#fixed
        ? "--run-timeout"
        : "the most a run is stretched for sliding-expiry probes; --run-timeout sets a longer one";
      return `the run would need ${formatDuration(needed - this.#startedAt)}, past its deadline of ${formatDuration(limit - this.#startedAt)} (${how})`;
    }
    const until = Math.min(at, limit);
    if (until > this.#at && !this.#controller.signal.aborted) {
      this.#at = until;
      this.#arm();
    }
    return undefined;
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
    // A deadline past what one timer holds is reached in steps.
    this.#timer = setTimeout(() => this.#fireWhenDue(), timerDelay(this.#at - Date.now()));
  }

  #fireWhenDue(): void {
    if (Date.now() < this.#at) {
      this.#arm();
      return;
    }
    const how = this.#fixed ? "--run-timeout" : "derived from the profile and expires_in";
    this.#controller.abort(
      new Error(`the run's deadline of ${formatDuration(this.budgetMs)} (${how}) expired`),
    );
  }
}
