import { defineCommand, type OptionSpecs } from "../command.ts";
import { acceptedOption } from "../options/accepted-option.ts";
import { compareOptionDefinitions, loadBaselineOptionDefinitions } from "../options/gate-options.ts";
import { runTimeoutOption } from "../options/run-timeout-option.ts";
import { targetOptions } from "../options/target-options.ts";

const runOptions = {
  parts: {
    type: "string",
    valueName: "LIST",
    description:
      "Parts to run, comma-separated: contract, load, rotation (default: all; with a target: contract).",
  },
  profile: {
    type: "string",
    valueName: "NAME",
    description:
      "Contract profile: full (default here, as the run is the release verdict: adds the sliding-expiry checks) or fast. `contract` defaults to fast, for quick feedback while developing.",
  },
  scenario: {
    type: "string",
    multiple: true,
    valueName: "NAME[=D]",
    description: "Load scenario and optional duration (default: sustained=10s and idle-gap).",
  },
  rate: {
    type: "string",
    valueName: "N",
    description: "Events per second for the open load scenarios (sustained, ramp, spike, soak).",
  },
  "expect-old": {
    type: "string",
    valueName: "WHAT",
    description: "Target rotation check: refused or accepted, what the old secret should get.",
  },
  "expect-old-tokens": {
    type: "string",
    valueName: "WHAT",
    description: "Target rotation check: valid or revoked, what earlier tokens should be.",
  },
  "report-dir": {
    type: "string",
    valueName: "DIR",
    description: "Where the run's reports go; must be new or empty (default reports/<run-id>).",
  },
  "sandbox-fault": {
    type: "string",
    multiple: true,
    valueName: "NAME",
    description:
      "Start the embedded sandbox of the contract and load parts with this fault, to see them fail; the faults are listed by `event-harness sandbox --help`.",
  },
  baseline: {
    type: "string",
    multiple: true,
    valueName: "FILE",
    env: loadBaselineOptionDefinitions.baseline.env,
    description:
      "Compare each load part with its scenario's baseline: a file load --save-baseline wrote, a load report dir, or an earlier run's report dir (one baseline per scenario); its chart shows the baseline's band.",
  },
  "fail-on": compareOptionDefinitions["fail-on"],
  "allow-latency-change": compareOptionDefinitions["allow-latency-change"],
  "sandbox-latency": {
    type: "string",
    valueName: "MS",
    description: "Milliseconds the embedded sandbox of the load parts adds before every answer (default 0).",
  },
  quiet: {
    type: "boolean",
    description:
      "No progress lines from the contract and load parts (by default: on a terminal one line rewritten in place, in a log one line every 30 s at most).",
  },
  ...runTimeoutOption,
  ...acceptedOption,
  ...targetOptions,
} as const satisfies OptionSpecs;

export const runCommand = defineCommand({
  name: "run",
  summary: "The main job: contract suite, load and rotation checks; one verdict and an HTML report",
  usage:
    "run [--parts contract,load,rotation] [--profile fast|full] [--scenario NAME[=DURATION] …] [--report-dir DIR] [target options]",
  description: [
    "With no target: runs, one after the other against the embedded sandbox (each part starts its own, with a",
    "short expires_in), the contract suite (full profile), a 10 s sustained load, an idle-gap load and a rotation",
    "check (rotate without overlap or revocation; expect the old secret refused and earlier tokens valid).",
    "With a target, only the contract suite runs unless --parts names more (load sends real traffic; rotation",
    "wants EVENT_API_OLD_CLIENT_SECRET and --expect-old/--expect-old-tokens).",
    "A failing part does not stop the run. Each part writes into <report-dir>/<part>/; the run adds index.html",
    "(a self-contained visual report), summary.md (for $GITHUB_STEP_SUMMARY) and run.json.",
    "Verdict: failed if any part failed, else could-not-decide if any part could not decide, else passed; the",
    "verdict line says what gated it (thresholds, each baseline comparison, the ledger's notes).",
    "With --baseline, a load part whose comparison is REGRESSED fails (INCONCLUSIVE too with --fail-on",
    "inconclusive); UNCHANGED, IMPROVED, WAIVED and INCONCLUSIVE pass, and figures NOT JUDGED are named.",
    "Exit codes: 0 passed, 1 failed, 2 usage or configuration error (nothing ran), 3 could not decide.",
  ].join("\n"),
  options: runOptions,
  examples: [
    "npm start",
    "event-harness run --sandbox-fault expiry-fixed",
    "event-harness run --parts contract,load --scenario sustained=30s --scenario spike=1m",
    "EVENT_API_CLIENT_SECRET=… event-harness run --auth-url https://auth.staging.example.com \\\n    --base-url https://api.staging.example.com --client-id release-check --report-dir reports/release",
  ],
  async run({ options, io }) {
    // Loaded only now: the run reaches the contract, load and rotation pipelines and the report code.
    const { runAll } = await import("../run/index.ts");
    return runAll(options, io);
  },
});
