import { IDLE_GAP_BURST, IDLE_GAP_DEFAULT_CYCLES } from "./scenario-catalogue.ts";

/** The idle-gap schedule: each VU sends a burst, then alternates short and long gaps, each followed by a burst. */
export interface IdleGapPlan {
  /** Well under expires_in − margin: the token must survive it. */
  readonly shortGapSeconds: number;
  /** Well over expires_in + margin: the token must have expired. */
  readonly longGapSeconds: number;
  readonly cycles: number;
  readonly burst: number;
  readonly iterationsPerVu: number;
  /** Seconds of idle time one VU spends in total. */
  readonly idleSecondsPerVu: number;
}

/** Plans the gaps from the token's expires_in; `durationSeconds` (when given) sets how many cycles fit. */
export function planIdleGaps(
  expiresInSeconds: number,
  marginSeconds: number,
  durationSeconds: number | undefined,
): IdleGapPlan {
  const shortGapSeconds = round(Math.max(0.1, (expiresInSeconds - marginSeconds) / 2));
  const longGapSeconds = round(expiresInSeconds + marginSeconds + Math.max(1, expiresInSeconds / 4));
  const cycleSeconds = shortGapSeconds + longGapSeconds;
  const cycles =
    durationSeconds === undefined
      ? IDLE_GAP_DEFAULT_CYCLES
      : Math.max(1, Math.floor(durationSeconds / cycleSeconds));
  return {
    shortGapSeconds,
    longGapSeconds,
    cycles,
    burst: IDLE_GAP_BURST,
    iterationsPerVu: 1 + 2 * cycles,
    idleSecondsPerVu: cycles * cycleSeconds,
  };
}

/** The gap a VU waits before its iteration: none first, then short, long, short, long, … */
export function gapBefore(iterationInVu: number): "none" | "short" | "long" {
  if (iterationInVu <= 0) return "none";
  return iterationInVu % 2 === 1 ? "short" : "long";
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
