import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { CheckResult } from "../../contracts/index.ts";
import type { OutcomeFacts } from "../accepted/describe-outcomes.ts";
import type { CapacityDigest } from "./capacity-page.ts";
import { digestCapacity } from "./capacity-page.ts";
import type { LoadSummary } from "./load-summary.ts";
import { digestLoadSummary } from "./load-summary.ts";
import { asOutcomes } from "./recorded-outcomes.ts";
import type { PartOutcome } from "./run-outcome.ts";
import type { TimeSeries } from "./time-series.ts";
import { TIME_SERIES_FORMAT } from "./time-series.ts";

/** The time series file the run writes next to a load part's reports. */
export const TIME_SERIES_FILE = "timeseries.json";

/** The parts of a contract or rotation results.json the report shows. */
export interface ChecksFile {
  readonly suite: string;
  readonly durationMs: number;
  readonly seed?: number;
  readonly checks: readonly CheckResult[];
  /** What became of each entry of the ledger the run was judged with (waived, stale, unobserved, expired). */
  readonly accepted: readonly OutcomeFacts[];
  /** The ledger as the user named it. */
  readonly acceptedFile?: string;
}

/** A part with what its report files say; every field is optional because a part may have failed to write them. */
export interface PartDetails {
  readonly outcome: PartOutcome;
  readonly checks?: ChecksFile;
  readonly load?: LoadSummary;
  /** A capacity search's figure and steps, when the load part searched for one. */
  readonly capacity?: CapacityDigest;
  readonly series?: TimeSeries;
  /** The load part's comparison with its baseline, when it was given one. */
  readonly comparison?: BaselineComparisonFile;
  /** Files in the part's folder, relative to the run directory, for links. */
  readonly files: readonly string[];
}

/** What a load run compared with a baseline writes beside its reports, for the HTML report's latency chart. */
export const BASELINE_COMPARISON_FILE = "baseline-comparison.json";

export interface BaselineComparisonFile {
  readonly baseline: string;
  readonly status: string;
  /** The comparison in one clause, with what it did not judge. */
  readonly line?: string;
  readonly figures: readonly {
    readonly id: string;
    readonly status: string;
    readonly baseline: number | null;
    readonly candidate: number | null;
  }[];
}

function asComparison(value: unknown): BaselineComparisonFile | undefined {
  const v = value as Partial<BaselineComparisonFile> | undefined;
  return v && typeof v.baseline === "string" && typeof v.status === "string" && Array.isArray(v.figures)
    ? (v as BaselineComparisonFile)
    : undefined;
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as unknown;
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function asChecksFile(data: unknown): ChecksFile | undefined {
  if (!isObject(data) || !Array.isArray(data.checks)) return undefined;
  const checks = data.checks.filter(
    (check): check is CheckResult =>
      isObject(check) &&
      typeof check.id === "string" &&
      typeof check.status === "string" &&
      typeof check.area === "string" &&
      Array.isArray(check.evidence),
  );
  return {
    suite: typeof data.suite === "string" ? data.suite : "",
    durationMs: typeof data.durationMs === "number" ? data.durationMs : 0,
    ...(typeof data.seed === "number" ? { seed: data.seed } : {}),
    checks,
    accepted: asOutcomes(data.accepted),
    ...(typeof data.acceptedFile === "string" ? { acceptedFile: data.acceptedFile } : {}),
  };
}

function asTimeSeries(data: unknown): TimeSeries | undefined {
  if (!isObject(data) || data.format !== TIME_SERIES_FORMAT || typeof data.length !== "number")
    return undefined;
  return data as unknown as TimeSeries;
}

/** Reads what a part left in its folder under `runDir`; missing or foreign files are simply left out. */
export async function readPartDetails(runDir: string, outcome: PartOutcome): Promise<PartDetails> {
  const dir = path.join(runDir, outcome.id);
  const names = (await readdir(dir).catch(() => [] as string[]))
    .filter((name) => !name.startsWith("."))
    .sort();
  const files = names.map((name) => `${outcome.id}/${name}`);
  if (outcome.kind === "load") {
    const summary = await readJson(path.join(dir, "summary.json"));
    const capacity = digestCapacity(summary);
    if (capacity !== undefined) {
      const comparison = asComparison(await readJson(path.join(dir, BASELINE_COMPARISON_FILE)));
      return { outcome, files, capacity, ...(comparison ? { comparison } : {}) };
    }
    const load = digestLoadSummary(summary);
    const series = asTimeSeries(await readJson(path.join(dir, TIME_SERIES_FILE)));
    const comparison = asComparison(await readJson(path.join(dir, BASELINE_COMPARISON_FILE)));
    return {
      outcome,
      files,
      ...(load ? { load } : {}),
      ...(series ? { series } : {}),
      ...(comparison ? { comparison } : {}),
    };
  }
  const checks = asChecksFile(await readJson(path.join(dir, "results.json")));
  return { outcome, files, ...(checks ? { checks } : {}) };
}
