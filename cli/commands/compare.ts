import { defineCommand } from "../command.ts";
import { compareCommandOptions } from "../options/compare-options.ts";

export const compareCommand = defineCommand({
  name: "compare",
  summary: "Compare a run with a baseline: load figures by statistics, contract checks one by one",
  usage:
    "compare <BASE> <CANDIDATE> [--min-change-pct P] [--min-change-ms MS] [--window D] [--fail-on regressed|inconclusive] [--accepted FILE]",
  description: [
    "BASE and CANDIDATE are each a baseline file (load --save-baseline), a load report dir (its baseline.json),",
    "or a contract report dir or its results.json; both of one kind.",
    "Load: each gated figure (events latency p50/p95/p99, token latency, failure rate, accepted rate) is judged by",
    "the Mann-Whitney U test's Hodges-Lehmann shift and its 95 % interval against the change that matters (latency:",
    "20 % of the baseline or 5 ms, the larger; failure rate: 1 percentage point; accepted rate: 5 %): REGRESSED or",
    "IMPROVED when the whole interval lies beyond it, UNCHANGED when within it, INCONCLUSIVE otherwise. A figure with",
    "fewer than 20 samples a side whose interval is too wide to tell is NOT JUDGED: named with what would judge it",
    "and kept out of the verdict. Each window of --window is judged on its own too. The comparison is REGRESSED when",
    "a judged figure is, else INCONCLUSIVE when a judged figure's interval reaches past the change that matters (or",
    "no figure could be judged), else WAIVED (a regression the --accepted ledger accepts), IMPROVED or UNCHANGED.",
    "Runs with other load settings, or against another target (the embedded sandbox against a deployed API, other",
    "sandbox faults), are refused; another origin, instances or k6 version is named.",
    "Contract: per check, what newly fails, what got fixed, what ran on one side only; differing profiles, clients",
    "and targets are named.",
    "Exit codes: 0 UNCHANGED, IMPROVED, WAIVED or INCONCLUSIVE; 1 REGRESSED, INCONCLUSIVE with --fail-on",
    "inconclusive, or a check that ran in both and newly fails; 2 usage error, runs that cannot be compared, or a",
    "record whose units span more than 14 days (no run lasts that long); 3 interrupted (SIGINT, SIGTERM).",
    "At most 1000 windows are judged: past that they widen, and a note says so.",
  ].join("\n"),
  options: compareCommandOptions,
  positionals: { min: 2, max: 2 },
  examples: [
    "event-harness compare sustained-baseline.json reports/load/sustained-20261125-101500",
    "event-harness compare --fail-on inconclusive baselines/sustained.json reports/load/sustained-20261125-101500",
    "event-harness compare reports/contract-before reports/contract-after",
  ],
  async run({ options, positionals, io }) {
    const { runCompare } = await import("../compare/run-compare.ts");
    return runCompare(positionals[0] as string, positionals[1] as string, options, io);
  },
});
