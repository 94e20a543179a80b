/** The format tag of a load run's comparison record (`baseline.json`), so an older or foreign file is refused. */
export const LOAD_RECORD_FORMAT = "event-harness-load-record/1";

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

/** One unit of time of a run: the latency histograms per endpoint ([bucket, count] pairs) and the event outcomes. */
export interface UnitRecord {
  readonly events: readonly (readonly [number, number])[];
  readonly eventsMax: number;
  readonly token: readonly (readonly [number, number])[];
  readonly tokenMax: number;
  readonly accepted: number;
  readonly failed: number;
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
  /** Where the run went, never a credential; the added sandbox latency when there was one. */
  readonly target: {
    readonly baseUrl: string;
    readonly embedded: boolean;
    readonly sandboxLatencyMs?: number;
  };
  readonly instances: number;
  readonly unitMs: number;
  /** Leading units left out of the events figures: the token warm-up, then connections and JIT warming up. */
  readonly warmUpUnits: number;
  readonly units: readonly UnitRecord[];
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
  return differences;
}
