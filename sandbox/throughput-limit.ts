/**
 * A server with a fixed capacity for events: it starts at most `eventsPerSecond` events a second, one every
 * 1000 / N ms, and each event that arrives while the server is busy waits its turn in a queue. While arrivals stay
 * under N none waits; past N the queue, and with it the latency, grows for as long as the overload lasts, as a real
 * server's does. An event that would wait longer than `queueLimitMs` is refused at once (503), as a server with a
 * bounded queue sheds load.
 */
export class ThroughputLimit {
  readonly #intervalMs: number;
  readonly #queueLimitMs: number;
  /** When the next event may start: the end of the queue. */
  #nextStartMs = Number.NEGATIVE_INFINITY;

  constructor(eventsPerSecond: number, queueLimitMs: number) {
    this.#intervalMs = 1000 / eventsPerSecond;
    this.#queueLimitMs = queueLimitMs;
  }

  /**
   * Admits an event that arrived at `nowMs`: how long it waits before it is served, or undefined when the queue is
   * full and it is refused. A refused event takes no place in the queue.
   */
  admit(nowMs: number): number | undefined {
    const startMs = Math.max(nowMs, this.#nextStartMs);
    const waitMs = startMs - nowMs;
    if (waitMs > this.#queueLimitMs) return undefined;
    this.#nextStartMs = startMs + this.#intervalMs;
    return waitMs;
  }
}
