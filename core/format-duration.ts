// Every duration the reports and the CLI show is written here. No Node or k6 APIs, and no module-level names in
// the functions' bodies: the run report embeds formatDurationCompact's source (with splitDuration's) in its script.

/** A duration rounded to what its largest unit shows: `major` of `unit`, and `minor` of the next smaller unit. */
export interface DurationParts {
  /** `ms`: whole milliseconds; `s`: seconds, to the step asked for; `min`: minutes and seconds; `h`: hours and minutes. */
  readonly unit: "ms" | "s" | "min" | "h";
  readonly major: number;
  /** The seconds after the minutes, or the minutes after the hours; 0 for `ms` and `s`. */
  readonly minor: number;
}

/**
 * Splits `ms` (negative and NaN taken as 0) into the largest unit it reaches once rounded, so that 999.6 ms is
 * 1 s and 59.96 s is 1 min 0 s, never "1000 ms" or "60.0 s". Under a minute, seconds are rounded to `secondStepMs`.
 */
export function splitDuration(ms: number, secondStepMs: number): DurationParts {
  const t = ms > 0 ? ms : 0;
  const wholeMs = Math.round(t);
  if (wholeMs < 1000) return { unit: "ms", major: wholeMs, minor: 0 };
  const stepped = Math.round(t / secondStepMs) * secondStepMs;
  if (stepped < 60000) return { unit: "s", major: stepped / 1000, minor: 0 };
  const seconds = Math.round(t / 1000);
  if (seconds < 3600) return { unit: "min", major: Math.floor(seconds / 60), minor: seconds % 60 };
  const minutes = Math.round(t / 60000);
  return { unit: "h", major: Math.floor(minutes / 60), minor: minutes % 60 };
}

/** A duration for people: "40 ms", "8.0 s", "2 min 5 s", "1 h 2 min"; "–" when there is none (NaN, infinite). */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return "–";
  const { unit, major, minor } = splitDuration(ms, 100);
  if (unit === "ms") return `${major} ms`;
  if (unit === "s") return `${major.toFixed(1)} s`;
  return unit === "min" ? `${major} min ${minor} s` : `${major} h ${minor} min`;
}

/**
 * A duration as k6 writes one, for CLI defaults and chart axes: "500ms", "45s", "4m5s", "5m", "1h1m"; "0s" for
 * nothing. k6 and `--duration` read it back.
 */
export function formatDurationCompact(ms: number): string {
  if (!Number.isFinite(ms)) return "–";
  const { unit, major, minor } = splitDuration(ms, 1000);
  if (unit === "ms") return major === 0 ? "0s" : `${major}ms`;
  if (unit === "s") return `${major}s`;
  const big = unit === "min" ? "m" : "h";
  const small = unit === "min" ? "s" : "m";
  return minor === 0 ? `${major}${big}` : `${major}${big}${minor}${small}`;
}
