/** The format tag of a load run's comparison record (`baseline.json`), so an older or foreign file is refused. */
export const LOAD_RECORD_FORMAT = "event-harness-load-record/2";
/** The tag every version of the record starts with, to tell an older record from a file of another kind. */
export const LOAD_RECORD_FAMILY = "event-harness-load-record/";

/** The settings two runs must share to be compared: another load is another experiment, not a regression. */
export interface LoadRecordSettings {
  readonly scenario: string;
  /** Events per second, for the scenarios that take a rate. */
  readonly rate: number | null;
  readonly vus: number;
  readonly durationSeconds: number | null;
  readonly clientModel: string;
  readonly expiresInSeconds: number | null;
}

/** What a capacity search found, as a baseline keeps it. */
export interface CapacityRecord {
  /** bracketed (a rate held, a higher one broke), at-least (none broke), none (no rate held). */
  readonly kind: "bracketed" | "at-least" | "none";
  readonly held: number | null;
  readonly broken: number | null;
  /** The lowest rate the generator, not the target, limited. */
  readonly limitedAt: number | null;
  /** The objectives each step was held to, `metric expression`, sorted: other objectives are another experiment. */
  readonly objectives: readonly string[];
}

/** One unit of time of a run: the latency histograms per endpoint ([bucket, count] pairs) and the event outcomes. */
export interface UnitRecord {
  readonly events: readonly (readonly [number, number])[];
  readonly eventsMax: number;
  readonly token: readonly (readonly [number, number])[];
  readonly tokenMax: number;
  readonly accepted: number;
  readonly failed: number;
}

/** What a baseline belongs to: which target answered, never a credential. */
export interface TargetRecord {
  readonly embedded: boolean;
  /** The events API's origin (scheme, host, port); the embedded sandbox's changes every run. */
  readonly origin: string;
  /** How the embedded sandbox was set up: its faults and the latency it added; absent for a deployed target. */
  readonly sandbox?: {
    readonly latencyMs: number;
    readonly faults: readonly string[];
    /** The events a second it served at most, when it was limited. */
    readonly throughputLimit?: number;
  };
}

/**
 * What a later comparison needs of a load run, in one portable file: per unit of time (aligned to the first
 * sample), mergeable latency histograms per endpoint (2 % buckets) and the accepted and failed events.
 */
export interface LoadRecord {
  readonly format: typeof LOAD_RECORD_FORMAT;
  readonly kind: "load";
  readonly settings: LoadRecordSettings;
  readonly versions: { readonly harness: string; readonly k6: string };
  readonly runId: string;
  readonly startedAt: string;
  readonly target: TargetRecord;
  readonly instances: number;
  readonly unitMs: number;
  /** Leading units left out of the events figures: the token warm-up, then connections and JIT warming up. */
  readonly warmUpUnits: number;
  readonly units: readonly UnitRecord[];
  /** A capacity run's figure (its steps' own figures are not compared: each ran at another rate). */
  readonly capacity?: CapacityRecord;
}

/** Units of 0.5 s for runs up to 5 minutes, longer ones so that a run keeps about 600 units. */
export function unitMsFor(expectedSeconds: number): number {
  return Math.max(500, Math.ceil((expectedSeconds * 1000) / 600 / 500) * 500);
}

/** The warm-up left out: a tenth of the run, at most 10 s, at least one unit. */
export function warmUpUnitsFor(expectedSeconds: number, unitMs: number): number {
  return Math.max(1, Math.ceil((Math.min(10, expectedSeconds / 10) * 1000) / unitMs));
}

/** The settings that differ between two records, each as `name base → candidate`; empty when comparable. */
export function settingsDifferences(base: LoadRecord, candidate: LoadRecord): string[] {
  const differences: string[] = [];
  for (const key of Object.keys(base.settings) as (keyof LoadRecordSettings)[]) {
    const a = base.settings[key];
    const b = candidate.settings[key];
    if (a !== b) differences.push(`${key} ${a ?? "none"} → ${b ?? "none"}`);
  }
  if (base.unitMs !== candidate.unitMs) differences.push(`unitMs ${base.unitMs} → ${candidate.unitMs}`);
  const objectives = (r: LoadRecord) => (r.capacity?.objectives ?? []).join(", ") || "none";
  if (objectives(base) !== objectives(candidate)) {
    differences.push(`objectives ${objectives(base)} → ${objectives(candidate)}`);
  }
  return differences;
}

const faultList = (faults: readonly string[]) =>
  faults.length === 0 ? "none" : [...faults].sort().join(",");

/**
 * Targets that make two runs different experiments, refused before any load: the embedded sandbox against a
 * deployed API, a sandbox with other faults (each breaks a rule, so the runs measure different servers) or another
 * throughput limit (another capacity), or one that added another latency, unless that slowdown is simulated on purpose (`allowLatencyChange`).
 */
export function targetMismatches(
  base: TargetRecord,
  candidate: TargetRecord,
  allowLatencyChange = false,
): string[] {
  const where = (t: TargetRecord) => (t.embedded ? "the embedded sandbox" : `a deployed API (${t.origin})`);
  if (base.embedded !== candidate.embedded) {
    return [`the baseline ran against ${where(base)}, this run against ${where(candidate)}`];
  }
  const mismatches: string[] = [];
  const a = faultList(base.sandbox?.faults ?? []);
  const b = faultList(candidate.sandbox?.faults ?? []);
  if (a !== b) mismatches.push(`sandbox faults ${a} → ${b}`);
  const limit = (t: TargetRecord) => t.sandbox?.throughputLimit ?? "none";
  if (limit(base) !== limit(candidate)) {
    mismatches.push(`sandbox throughput limit ${limit(base)} → ${limit(candidate)} events/s`);
  }
  const latency = (t: TargetRecord) => t.sandbox?.latencyMs ?? 0;
  if (!allowLatencyChange && latency(base) !== latency(candidate)) {
    mismatches.push(
      `sandbox latency ${latency(base)} ms → ${latency(candidate)} ms (a slowdown simulated on purpose is compared with --allow-latency-change)`,
    );
  }
  return mismatches;
}

/**
 * What differs between two comparable runs and is said with the verdict: another origin (blue/green is legitimate),
 * another added sandbox latency (a slowdown simulated on purpose), other instances, another k6.
 */
export function comparisonNotes(base: LoadRecord, candidate: LoadRecord): string[] {
  const notes: string[] = [];
  if (!base.target.embedded && !candidate.target.embedded && base.target.origin !== candidate.target.origin) {
    notes.push(`another origin: ${base.target.origin} → ${candidate.target.origin}`);
  }
  const latency = (r: LoadRecord) => r.target.sandbox?.latencyMs ?? 0;
  if (base.target.embedded && candidate.target.embedded && latency(base) !== latency(candidate)) {
    notes.push(
      `the sandbox added ${latency(base)} ms to the baseline's answers and ${latency(candidate)} ms to this run's: the latency figures measure that`,
    );
  }
  if (base.instances !== candidate.instances)
    notes.push(`instances ${base.instances} → ${candidate.instances}`);
  if (base.versions.k6 !== candidate.versions.k6)
    notes.push(`k6 ${base.versions.k6} → ${candidate.versions.k6}`);
  return notes;
}
