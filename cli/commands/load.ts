import { SCENARIO_NAMES, SCENARIOS } from "../../load/index.ts";
import { formatDurationCompact } from "../../reporting/index.ts";
import { defineCommand } from "../command.ts";
import { loadOptions } from "../options/load-options.ts";

export const loadCommand = defineCommand({
  name: "load",
  summary: "Run a k6 load scenario and judge throughput, latency and sliding expiry under load",
  usage: `load <${SCENARIO_NAMES.join("|")}> [--rate N] [--duration D] [--vus N] [--instances N] [--client-model M] [--report-dir DIR] [--threshold NAME=EXPR …] [--baseline FILE] [--save-baseline FILE] [target options]`,
  description: [
    "Scenarios:",
    ...SCENARIO_NAMES.map((name) => {
      const { defaults, summary } = SCENARIOS[name];
      const shown = [
        defaults.rate === undefined ? "" : `${defaults.rate}/s`,
        defaults.durationSeconds === undefined ? "" : formatDurationCompact(defaults.durationSeconds * 1000),
        `${defaults.vus} VUs`,
      ].filter(Boolean);
      return `  ${name.padEnd(12)} ${summary} (default ${shown.join(", ")})`;
    }),
    "",
    "With no target, the embedded sandbox runs in-process. k6 v2 is found (K6_BIN, PATH, .tools/bin) or built once.",
    "Credentials reach k6 only through its environment, and every output and report is redacted.",
    "Reports: summary.md, summary.json, junit.xml and dashboard.html in reports/load/<scenario>-<timestamp>/.",
    "Every run keeps baseline.json for later comparisons; --baseline judges each gated figure as `compare` does",
    "(see `event-harness compare --help`); a baseline taken with other load settings or on another kind of",
    "target is refused (exit 2). The result line says what gated the run: thresholds, baseline, ledger.",
    "Exit codes: 0 thresholds passed and the baseline comparison is UNCHANGED, IMPROVED, WAIVED or INCONCLUSIVE;",
    "1 a threshold failed (a contract violation, error rate, latency, dropped iterations), no event was accepted, a",
    "figure REGRESSED, or the comparison is INCONCLUSIVE with --fail-on inconclusive; 2 usage or configuration",
    "error; 3 could not run (target unreachable, k6 failed).",
  ].join("\n"),
  options: loadOptions,
  positionals: { min: 1, max: 1 },
  examples: [
    "event-harness load sustained --rate 50 --duration 1m",
    "event-harness load idle-gap --sandbox-fault expiry-never",
    "event-harness load sustained --rate 50 --duration 30s --baseline sustained-baseline.json --sandbox-latency 30 --allow-latency-change",
    "event-harness load sustained --instances 2 --rate 2000 --duration 1m",
    "event-harness load spike --rate 20 --threshold 'http_req_duration{endpoint:events}=p(95)<300'",
    "EVENT_API_CLIENT_SECRET=… event-harness load soak --duration 2h --out json=soak.json.gz --auth-url … --base-url … --client-id …",
  ],
  async run({ options, positionals, io }) {
    // The machinery (esbuild, faker, the sandbox, undici) loads only when the command runs, not for every CLI call.
    const { runLoad } = await import("../load/index.ts");
    return runLoad(positionals[0] as string, options, io);
  },
});
