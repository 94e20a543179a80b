import { defineCommand, delegateTo } from "../command.ts";
import { runOptions } from "../options/run-options.ts";

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
  // Loaded only now: the run reaches the contract, load and rotation pipelines and the report code.
  run: delegateTo(async () => (await import("../run/index.ts")).runAll),
});
