import { defineCommand } from "../command.ts";
import { loadMergeOptions } from "../options/load-merge-options.ts";

export const loadMergeCommand = defineCommand({
  name: "load-merge",
  summary: "Merge the outputs of k6-operator runners into one load verdict and report",
  usage: "load-merge <runner-dir>… [--plan FILE] [--report-dir DIR]",
  description: [
    "Each <runner-dir> holds one runner's summary.json and samples.csv.gz, as `load --k6-operator` sets them up.",
    "Counts add, latency percentiles come from the pooled samples, and thresholds are judged on the merged data.",
    "Exit codes: 0 thresholds passed, 1 a threshold failed, 2 usage error, 3 an output is missing or unreadable.",
  ].join("\n"),
  options: loadMergeOptions,
  positionals: { min: 1, max: 1000 },
  examples: ["event-harness load-merge results/*/ --plan plan.json"],
  async run({ options, positionals, io }) {
    const { runLoadMerge } = await import("../load/index.ts");
    return runLoadMerge(positionals, options, io);
  },
});
