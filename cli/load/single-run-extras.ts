import path from "node:path";

/** k6's CSV output as the harness asks for it: the timestamps in ms, which the baseline record's units need. */
const CSV_OUT = /^csv=fileName=([^,]+),timeFormat=unix_milli$/;
/** Where a single-instance run asks k6 for its samples, when no --out already writes them; removed once read. */
const SAMPLES_FILE = "samples.csv.gz";

/** The samples the baseline record is built from: the file, the k6 arguments that write it, and whether it is ours. */
export interface SamplesOutput {
  readonly args: string[];
  readonly file: string;
  readonly own: boolean;
}

/** The k6 --out that writes the samples into `reportDir`, unless one of `outs` already writes them. */
export function samplesOutput(reportDir: string, outs: readonly string[]): SamplesOutput {
  for (const out of outs) {
    const match = CSV_OUT.exec(out);
    if (match?.[1] !== undefined) return { args: [], file: match[1], own: false };
  }
  const file = path.join(reportDir, SAMPLES_FILE);
  return { args: ["--out", `csv=fileName=${file},timeFormat=unix_milli`], file, own: true };
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
  // The dashboard draws charts only for runs longer than three periods (default 10 s): short runs need a short one.
  const periodSeconds = Math.min(10, Math.max(1, Math.round(options.expectedSeconds / 30)));
  return {
    env: {
      K6_WEB_DASHBOARD: "true",
      K6_WEB_DASHBOARD_EXPORT: path.join(options.reportDir, "dashboard.html"),
      K6_WEB_DASHBOARD_PORT: "-1",
      K6_WEB_DASHBOARD_PERIOD: `${periodSeconds}s`,
    },
    args: [
      ...(options.address === undefined ? [] : ["--address", options.address]),
      ...options.outs.flatMap((out) => ["--out", out]),
      ...options.samples.args,
    ],
  };
}
