import { IDLE_GAP_BURST, IDLE_GAP_DEFAULT_CYCLES } from "./scenario-catalogue.ts";

/**
 * The idle-gap schedule, one token per cycle (E = expires_in, m = margin, the tolerance for request latency and
 * server clocks). Each VU sends a burst with a new token, then per cycle:
 * - a mid gap of about 0.75·E (between E/2 + m and E − 2m): the token must survive it, which a target whose idle
 *   tokens die early (after E/2) does not;
 * - short gaps of E/4 until the token has been in use for more than E + m since its issue: it must stay valid, which
 *   a target whose lifetime counts from issue (a fixed expiry) does not;
 * - a long gap of E + m + max(1 s, E/4): the token must have expired (a probe), after which the VU gets a new one.
 * Every burst after a gap starts with the held token as it is (a probe), whatever the client model would do.
 */
export interface IdleGapPlan {
  /** E/4: well under expires_in − margin, so a sliding token survives each. */
  readonly shortGapSeconds: number;
  /** Short gaps per cycle: enough that, with the mid gap, the token is used past expires_in + margin after issue. */
  readonly shortGaps: number;
  /** Between expires_in/2 + margin and expires_in − 2·margin: the token must survive it. */
  readonly midGapSeconds: number;
  /** Well over expires_in + margin: the token must have expired. */
  readonly longGapSeconds: number;
  readonly cycles: number;
  readonly burst: number;
  readonly iterationsPerVu: number;
  /** Seconds of idle time one VU spends in total. */
  readonly idleSecondsPerVu: number;
}

/** The gap a VU waits before an iteration. */
export type IdleGap = "none" | "mid" | "short" | "long";

/**
 * Plans the gaps from the token's expires_in; `durationSeconds` (when given) sets how many cycles fit, at least one.
 * Throws when the margin leaves no room for the mid gap (it needs margin ≤ expires_in / 6).
 */
export function planIdleGaps(
  expiresInSeconds: number,
  marginSeconds: number,
  durationSeconds: number | undefined,
): IdleGapPlan {
  if (marginSeconds * 6 > expiresInSeconds) {
    throw new Error(
      `idle-gap needs a gap between expires_in/2 + margin and expires_in − 2 × margin: with expires_in ${expiresInSeconds}s ` +
        `the margin must be at most ${round(expiresInSeconds / 6)}s (--expires-margin), got ${marginSeconds}s`,
    );
  }
  // The centre of [E/2 + m, E − 2m]: the farthest from both an early expiry and the 401 classifier's bound.
  const midGapSeconds = round(0.75 * expiresInSeconds - marginSeconds / 2);
  const shortGapSeconds = round(expiresInSeconds / 4);
  // One more than needed to pass E + m, so the token is used well past the end of a lifetime fixed from issue.
  const shortGaps =
    Math.max(0, Math.ceil((expiresInSeconds + marginSeconds - midGapSeconds) / shortGapSeconds)) + 1;
  const longGapSeconds = round(expiresInSeconds + marginSeconds + Math.max(1, expiresInSeconds / 4));
  const cycleSeconds = midGapSeconds + shortGaps * shortGapSeconds + longGapSeconds;
  const cycles =
    durationSeconds === undefined
      ? IDLE_GAP_DEFAULT_CYCLES
      : Math.max(1, Math.floor(durationSeconds / cycleSeconds));
  return {
    shortGapSeconds,
    shortGaps,
    midGapSeconds,
    longGapSeconds,
    cycles,
    burst: IDLE_GAP_BURST,
    iterationsPerVu: 1 + cycles * (shortGaps + 2),
    idleSecondsPerVu: round(cycles * cycleSeconds),
  };
}

/** The gap a VU waits before its iteration: none first, then per cycle mid, `shortGaps` × short, long. */
export function gapBefore(iterationInVu: number, shortGaps: number): IdleGap {
  if (iterationInVu <= 0) return "none";
  const position = (iterationInVu - 1) % (shortGaps + 2);
  if (position === 0) return "mid";
  return position <= shortGaps ? "short" : "long";
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
