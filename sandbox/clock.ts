/** A source of the current time in epoch milliseconds; injected so tests drive token expiry without sleeping. */
export interface Clock {
  now(): number;
}

/** The real wall clock, the default outside tests. */
export const systemClock: Clock = { now: () => Date.now() };
