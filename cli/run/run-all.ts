import path from "node:path";
import packageJson from "../../package.json" with { type: "json" };
import { formatDuration } from "../../reporting/index.ts";
import type { PartOutcome, RunOutcome } from "../../reporting/run/index.ts";
import { combineVerdicts, exitCodeOf, writeRunReport } from "../../reporting/run/index.ts";
import { DEMO_CLIENT } from "../../sandbox/index.ts";
import type { CommandIo } from "../command.ts";
import { displayPath } from "../display-path.ts";
import { interruption } from "../interruption.ts";
import { runTimeoutEnvironment } from "../run-timeout-option.ts";
import { prepareWritableDir } from "../writable-dir.ts";
import type { PartContext } from "./execute-part.ts";
import { executePart } from "./execute-part.ts";
import { planParts } from "./part-plan.ts";
import { runRedactor } from "./run-redactor.ts";
import type { RunOptionValues } from "./run-settings.ts";
import { readSettings } from "./run-settings.ts";
import { targetEnvironment } from "./target-environment.ts";

const VERDICT_WORD = {
  passed: "PASSED",
  failed: "FAILED",
  undecided: "COULD NOT DECIDE",
  aborted: "ABORTED",
} as const;
const PART_MARK = { passed: "✔", failed: "✖", undecided: "?", aborted: "■", skipped: "–" } as const;

/**
 * `event-harness run`: reads and checks everything first (a mistake is exit 2 with nothing run), runs the parts one
 * after the other through their own commands, then writes one report and prints one verdict.
 */
export async function runAll(options: RunOptionValues, io: CommandIo): Promise<number> {
  const settings = await readSettings(options, io.env, io.signal);
  const { runDir, runId, external } = settings;
  // The registry loads the run command, which loads this module: a static import back would close a cycle.
  const { commands } = await import("../commands/index.ts");
  const redactor = runRedactor(external, DEMO_CLIENT, io.env);
  // The run's own words go out as they are; the URLs the user gave are redacted as values, parts redact their own.
  const out = (text: string) => void io.stdout.write(text);
  const plans = planParts(settings);
  const context: PartContext = {
    io,
    // Target options given as flags reach the parts as environment variables, so no secret is ever an argv.
    env: {
      ...io.env,
      ...targetEnvironment(options, io.env),
      ...runTimeoutEnvironment(options["run-timeout"], io.env),
    },
    runDir,
    commands,
    external,
  };

  // Before the first part: a run whose report cannot be written is not started.
  await prepareWritableDir(runDir, "--report-dir", "run");
  const against = external
    ? `${redactor.redact(external.baseUrl)} (token endpoint ${redactor.redact(external.tokenUrl)}, client authentication ${external.clientAuth})`
    : "the embedded sandbox";
  out(`event-harness run ${runId}: ${plans.map((plan) => plan.id).join(", ")} against ${against}\n`);
  out(`Reports: ${displayPath(runDir)}/\n`);
  const outcomes: PartOutcome[] = [];
  for (const [index, plan] of plans.entries()) {
    if (!io.signal.aborted) out(`\n━━ [${index + 1}/${plans.length}] ${plan.title} ━━\n`);
    const outcome = await executePart(plan, context);
    outcomes.push(outcome);
    if (outcome.verdict !== "skipped") {
      out(`→ ${plan.id}: ${outcome.verdict} in ${formatDuration(outcome.durationMs)}\n`);
    }
  }

  const aborted = io.signal.aborted ? interruption(io.signal) : undefined;
  const verdict = combineVerdicts(outcomes, aborted !== undefined);
  const run: RunOutcome = {
    tool: { name: packageJson.name, version: packageJson.version },
    runId,
    startedAt: settings.started.toISOString(),
    durationMs: Date.now() - settings.started.getTime(),
    verdict,
    ...(aborted === undefined ? {} : { aborted }),
    target: external
      ? {
          embedded: false,
          tokenUrl: redactor.redact(external.tokenUrl),
          baseUrl: redactor.redact(external.baseUrl),
          clientAuth: external.clientAuth,
          insecure: external.connection.insecure,
        }
      : { embedded: true },
    parts: outcomes,
  };
  const indexPath = displayPath(path.join(runDir, "index.html"));
  await writeRunReport(runDir, run, indexPath);

  const width = Math.max(...outcomes.map((outcome) => outcome.title.length));
  out("\n━━ Verdict ━━\n");
  for (const outcome of outcomes) {
    const note = outcome.note ? `  (${outcome.note})` : "";
    out(
      `  ${PART_MARK[outcome.verdict]} ${outcome.verdict.padEnd(10)} ${outcome.title.padEnd(width)}  ${formatDuration(outcome.durationMs)}${note}\n`,
    );
  }
  const passed = outcomes.filter((outcome) => outcome.verdict === "passed").length;
  out(`Report:  ${indexPath}\nSummary: ${displayPath(path.join(runDir, "summary.md"))}\n`);
  out(
    `Verdict: ${VERDICT_WORD[verdict]}${aborted === undefined ? "" : ` (${aborted})`} — ${passed} of ${outcomes.length} parts passed (${formatDuration(run.durationMs)})\n`,
  );
  return exitCodeOf(verdict);
}
