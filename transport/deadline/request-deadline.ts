import { formatDuration } from "../../core/index.ts";
import { timerDelay } from "./timer-delay.ts";

/** The evidence text of an exchange that ran out of time. */
export function noAnswerWithin(ms: number): string {
  return `no answer within ${formatDuration(ms)}`;
}

/** Why an exchange was cut short: its own time ran out, or the outer signal (run deadline, Ctrl+C) fired. */
export interface CutShort {
  readonly by: "timeout" | "outer";
  readonly message: string;
}

/** One deadline for a whole exchange: connect, headers and body together, so a trickling body cannot outlive it. */
export interface RequestDeadline {
  /** Give it to the HTTP client; it aborts the exchange at the deadline or when the outer signal fires. */
  readonly signal: AbortSignal;
  /** Why the exchange was cut short, or undefined while it was not. */
  cutShort(): CutShort | undefined;
  /** Stops the timer once the exchange is over (body read). */
  dispose(): void;
}

function messageOf(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason ?? "aborted");
}

/** Starts the deadline of one exchange: `timeoutMs` from now, or earlier if `outer` aborts. */
export function requestDeadline(timeoutMs: number, outer?: AbortSignal): RequestDeadline {
  const controller = new AbortController();
  const started = Date.now();
  let cut: CutShort | undefined;
  const onOuter = () => {
    cut ??= { by: "outer", message: `${noAnswerWithin(Date.now() - started)}: ${messageOf(outer?.reason)}` };
    controller.abort(outer?.reason);
  };
  const timer = setTimeout(() => {
    cut ??= { by: "timeout", message: noAnswerWithin(timeoutMs) };
    controller.abort(new Error(cut.message));
  }, timerDelay(timeoutMs));
  if (outer?.aborted) onOuter();
  else outer?.addEventListener("abort", onOuter, { once: true });
  return {
    signal: controller.signal,
    cutShort: () => cut,
    dispose() {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onOuter);
    },
  };
}
