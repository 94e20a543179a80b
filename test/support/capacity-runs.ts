import { readFile } from "node:fs/promises";
import path from "node:path";
import type { LoadRun } from "./load-runs.ts";

/**
 * What the capacity tests ask of every search, so a step is short and still judged on enough events: 90 % of events
 * within 300 ms and fewer than 5 % failing (200 events a step), 2 s of warm-up and at least 4 s judged.
 */
export const QUICK_SEARCH = [
  "--threshold",
  "http_req_duration{endpoint:events}=p(90)<300",
  "--threshold",
  "events_failed=rate<0.05",
  "--step-warm-up",
  "2s",
  "--step-duration",
  "4s",
] as const;

/** The part of a capacity run's summary.json the tests read. */
export interface CapacitySummary {
  readonly harness: {
    readonly result: { readonly outcome: string };
    readonly verdictLine: string;
    readonly capacity: {
      readonly kind: string;
      readonly held: number | null;
      readonly broken: { readonly rate: number; readonly by: readonly { readonly metric: string }[] } | null;
      readonly limitedAt: number | null;
      readonly stop: string;
      readonly steps: readonly {
        readonly index: number;
        readonly rate: number;
        readonly outcome: string;
        readonly phase: string;
        readonly events: number;
      }[];
    };
  };
}

export async function capacitySummary(run: LoadRun): Promise<CapacitySummary> {
  return JSON.parse(await readFile(path.join(run.reportDir, "summary.json"), "utf8")) as CapacitySummary;
}
