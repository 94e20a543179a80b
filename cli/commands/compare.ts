import { defineCommand } from "../command.ts";
import { compareOptionDefinitions } from "../compare/compare-option-definitions.ts";

export const compareCommand = defineCommand({
  name: "compare",
  summary: "Compare a run with a baseline: load figures by statistics, contract checks one by one",
  usage: "compare <BASE> <CANDIDATE> [--min-change-pct P] [--min-change-ms MS] [--window D]",
  description: [
    "BASE and CANDIDATE are each a baseline file (load --save-baseline), a load report dir (its baseline.json),",
    "or a contract report dir or its results.json; both of one kind.",
    "Load: each gated figure (events latency p50/p95/p99 per unit of time, token latency, failure rate, accepted",
    "rate) is IMPROVED, UNCHANGED, REGRESSED or INCONCLUSIVE: the Mann-Whitney U test's Hodges-Lehmann shift, with",
    "its 95 % interval, must clear the change that matters (latency: 20 % of the baseline or 5 ms, the larger;",
    "failure rate: 1 percentage point; accepted rate: 5 %); fewer than 8 units a side is INCONCLUSIVE. Each window",
    "of --window is judged on its own too. Runs with other load settings are refused.",
    "Contract: per check, what newly fails, what got fixed, what else changed.",
    "Exit codes: 0 no regression, 1 a figure REGRESSED or a check newly fails, 2 usage error or runs that cannot be",
    "compared (different settings, different kinds).",
  ].join("\n"),
  options: compareOptionDefinitions,
  positionals: { min: 2, max: 2 },
  examples: [
    "event-harness compare sustained-baseline.json reports/load/sustained-20261125-101500",
    "event-harness compare reports/contract-before reports/contract-after",
  ],
  async run({ options, positionals, io }) {
    const { runCompare } = await import("../compare/run-compare.ts");
    return runCompare(positionals[0] as string, positionals[1] as string, options, io);
  },
});
