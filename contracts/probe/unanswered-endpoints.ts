import { noAnswerWithin } from "../../transport/deadline/index.ts";
import type { HttpRequest } from "./http-request.ts";

/** After this many requests in a row to one endpoint got no answer in time, it is not asked again in this run. */
export const UNANSWERED_LIMIT = 2;

function endpointOf(request: HttpRequest): string {
  const url = new URL(request.url);
  return `${request.method} ${url.origin}${url.pathname}`;
}

/**
 * Remembers endpoints that stopped answering, so a silent target costs a run a couple of timeouts per endpoint
 * rather than one per check. Any answer (any status) clears an endpoint's streak.
 */
export class UnansweredEndpoints {
  readonly #streaks = new Map<string, number>();

  /** Why the request is not worth sending, or undefined when it is. */
  refusal(request: HttpRequest, timeoutMs: number): string | undefined {
    const endpoint = endpointOf(request);
    const streak = this.#streaks.get(endpoint) ?? 0;
    if (streak < UNANSWERED_LIMIT) return undefined;
    return `not sent: ${request.method} ${new URL(request.url).pathname} gave ${noAnswerWithin(timeoutMs)} to the last ${streak} requests`;
  }

  record(request: HttpRequest, answered: boolean): void {
    const endpoint = endpointOf(request);
    if (answered) this.#streaks.delete(endpoint);
    else this.#streaks.set(endpoint, (this.#streaks.get(endpoint) ?? 0) + 1);
  }
}
