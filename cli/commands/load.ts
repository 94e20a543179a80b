import { CLIENT_MODELS, SCENARIO_NAMES, SCENARIOS } from "../../load/index.ts";
import { formatDurationCompact } from "../../reporting/index.ts";
import { acceptedOption } from "../accepted-option.ts";
import { defineCommand } from "../command.ts";
import {
  compareOptionDefinitions,
  loadBaselineOptionDefinitions,
} from "../compare/compare-option-definitions.ts";
import { credentialsOption, EMBEDDED_EXPIRES_IN, targetOptions } from "../target-options.ts";

const options = {
  rate: {
    type: "string",
    valueName: "N",
    description: "Events per second (sustained, soak; ramp: the peak; spike: the base rate).",
  },
  duration: {
    type: "string",
    valueName: "D",
    description: "Run length, k6-style (90s, 5m, 1h) or seconds; idle-gap: how many gap cycles fit.",
  },
  vus: { type: "string", valueName: "N", description: "VUs (open models: pre-allocated VUs)." },
  instances: {
    type: "string",
    valueName: "N",
    description:
      "Split the run over N local k6 processes (execution segments), started together; results are merged (default 1).",
  },
  "k6-operator": {
    type: "string",
    valueName: "DIR",
    description:
      "Write a k6 archive, ConfigMap and TestRun (parallelism = --instances) for grafana/k6-operator into DIR instead of running, without contacting the target; merge with load-merge.",
  },
  "expires-in": {
    type: "string",
    valueName: "S",
    description:
      "With --k6-operator: the target's expires_in, which a run learns from the target (idle-gap plans its gaps from it).",
  },
  "client-model": {
    type: "string",
    valueName: "M",
    description: `Token behaviour of the client: ${CLIENT_MODELS.join(", ")} (default per scenario).`,
  },
  "expires-margin": {
    type: "string",
    valueName: "S",
    description:
      "Seconds before expiry a client refreshes, and the 401 classifier's tolerance (default 10% of expires_in, ≤ 30; idle-gap: ≤ expires_in/6).",
  },
  ...credentialsOption,
  "report-dir": {
    type: "string",
    valueName: "DIR",
    description: "Where the reports go (default reports/load/<scenario>-<timestamp>).",
  },
  threshold: {
    type: "string",
    multiple: true,
    valueName: "NAME=EXPR",
    description: "Replace a metric's thresholds, e.g. 'http_req_duration{endpoint:events}=p(95)<300'.",
  },
  quiet: {
    type: "boolean",
    description:
      "No live progress on stderr (by default: elapsed time, events accepted and failed, rate, p95, token refreshes and expiry violations every few seconds).",
  },
  out: {
    type: "string",
    multiple: true,
    valueName: "SPEC",
    description: "Also stream metrics to a k6 output (k6 --out), e.g. json=metrics.json.gz for a soak.",
  },
  seed: {
    type: "string",
    valueName: "N",
    description: "Seed of the generated event bodies (default random).",
  },
  "sandbox-expires-in": {
    type: "string",
    valueName: "S",
    description: `expires_in of the embedded sandbox (default ${EMBEDDED_EXPIRES_IN}, so idle-gap takes seconds).`,
  },
  ...loadBaselineOptionDefinitions,
  ...compareOptionDefinitions,
  "sandbox-fault": {
    type: "string",
    multiple: true,
    valueName: "NAME",
    description:
      "Start the embedded sandbox with this fault, to see thresholds fail (e.g. expiry-fixed); the faults are listed by `event-harness sandbox --help`.",
  },
  ...acceptedOption,
  ...targetOptions,
} as const;

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
    "(see `event-harness compare --help`); a baseline taken with other load settings is refused (exit 2).",
    "Exit codes: 0 thresholds passed, 1 a threshold failed (a contract violation, error rate, latency,",
    "dropped iterations) or a figure REGRESSED, 2 usage or configuration error, 3 could not run (target unreachable, k6 failed).",
  ].join("\n"),
  options,
  positionals: { min: 1, max: 1 },
  examples: [
    "event-harness load sustained --rate 50 --duration 1m",
    "event-harness load idle-gap --sandbox-fault expiry-never",
    "event-harness load sustained --rate 50 --duration 30s --baseline sustained-baseline.json --sandbox-latency 30",
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
