import path from "node:path";
import { K6_SAMPLES_OUTPUT } from "../../k6-tooling/index.ts";

/** k6's CSV output as the harness asks for it: the timestamps in ms, which the baseline record's units need. */
const CSV_OUT = /^csv=fileName=([^,]+),timeFormat=unix_milli$/;
/** Where a single-instance run asks k6 for its samples, when no --out already writes them; removed once read. */
const SAMPLES_FILE = "samples.txt.gz";
/** The same from a k6 without the harness's own output (K6_BIN, PATH): every sample, as k6's CSV output writes it. */
const CSV_SAMPLES_FILE = "samples.csv.gz";

/** The samples the baseline record is built from: the file, the k6 arguments that write it, and whether it is ours. */
export interface SamplesOutput {
  readonly args: string[];
  readonly file: string;
  readonly own: boolean;
}

/**
 * The k6 --out that writes the samples into `reportDir`, unless one of `outs` already writes them: the harness's own
 * output where k6 has it (about one line an event), k6's CSV output (every sample of every metric) where not.
 */
export function samplesOutput(
  reportDir: string,
  outs: readonly string[],
  k6: { readonly samplesOutput: boolean },
): SamplesOutput {
  for (const out of outs) {
    const match = CSV_OUT.exec(out);
    if (match?.[1] !== undefined) return { args: [], file: match[1], own: false };
  }
  if (k6.samplesOutput) {
    const file = path.join(reportDir, SAMPLES_FILE);
    return { args: ["--out", `${K6_SAMPLES_OUTPUT}=${file}`], file, own: true };
  }
  const file = path.join(reportDir, CSV_SAMPLES_FILE);
  return { args: ["--out", `csv=fileName=${file},timeFormat=unix_milli`], file, own: true };
}

/** About this many dashboard periods per run: as many points as each chart draws. */
const DASHBOARD_PERIODS = 30;
/**
 * The longest period: the dashboard buffers every sample of a period before it aggregates them (3-minute runs at
 * 2,000 events/s peaked at 272–281 MB of RSS with 10 s periods, 354 MB with 30 s, 479 MB with 60 s).
 */
const MAX_DASHBOARD_PERIOD_SECONDS = 30;

/**
 * The dashboard's period for a run of `expectedSeconds`. Short runs need a short one: the dashboard draws charts only
 * for runs longer than three periods. Long runs need a long one: at each period's end the dashboard sorts every
 * sample of every trend since the start, so its CPU per event grows with the number of periods (k6's default 10 s
 * sorts them 360 times in an hour's run).
 */
export function dashboardPeriodSeconds(expectedSeconds: number): number {
  return Math.min(MAX_DASHBOARD_PERIOD_SECONDS, Math.max(1, Math.round(expectedSeconds / DASHBOARD_PERIODS)));
}

/**
 * What a single-instance `event-harness load` run hands k6 beyond its inputs and the user's --out: the HTML dashboard,
 * the REST API address the live progress reads, and the samples output. The load benchmark runs ours with exactly
 * these, so its figures price what a user's run costs.
 */
export function singleRunExtras(options: {
  readonly reportDir: string;
  readonly expectedSeconds: number;
  /** Undefined: no REST API (the load benchmark prices the live progress this way). */
  readonly address: string | undefined;
  readonly samples: SamplesOutput;
  readonly outs: readonly string[];
}): { readonly env: Record<string, string>; readonly args: string[] } {
  return {
    env: {
      K6_WEB_DASHBOARD: "true",
      K6_WEB_DASHBOARD_EXPORT: path.join(options.reportDir, "dashboard.html"),
      // Loopback, on a port the system picks: k6 v2.2.0 reads port -1 as a random port on every interface, and an
      // empty host as every interface, which would serve the live run to the whole network.
      K6_WEB_DASHBOARD_HOST: "127.0.0.1",
      K6_WEB_DASHBOARD_PORT: "0",
      K6_WEB_DASHBOARD_PERIOD: `${dashboardPeriodSeconds(options.expectedSeconds)}s`,
    },
    args: [
      ...(options.address === undefined ? [] : ["--address", options.address]),
      ...options.outs.flatMap((out) => ["--out", out]),
      ...options.samples.args,
    ],
  };
}
