import path from "node:path";
import type { Redactor, Target } from "../../contracts/index.ts";
import { CannotRunError } from "../../core/index.ts";
import { EMBEDDED_SANDBOX_NOTE, formatDuration } from "../../reporting/index.ts";
import type { PartOutcome, RunOutcome } from "../../reporting/run/index.ts";
import { combineVerdicts, describeLeadItem, writeRunReport } from "../../reporting/run/index.ts";
import { DEMO_CLIENT } from "../../sandbox/index.ts";
import {
  describeTokenEndpoint,
  inertText,
  mapTokenEndpointFacts,
  tokenEndpointFacts,
} from "../../transport/index.ts";
import { toolInfo } from "../build-info.ts";
import type { CommandIo } from "../command.ts";
import { displayPath } from "../display-path.ts";
import { runExitCode } from "../exit-codes.ts";
import { interruption } from "../interruption.ts";
import type { ConfigSource } from "../options/config-options.ts";
import { configSourceOf, describeConfigSource } from "../options/config-options.ts";
import type { RunOptionValues } from "../options/run-options.ts";
import { claimReportDir } from "../report-dir.ts";
import type { PartContext } from "./execute-part.ts";
import { executePart } from "./execute-part.ts";
import type { PartPlan } from "./part-plan.ts";
import { planParts, reproduceCommand } from "./part-plan.ts";
import { runRedactor } from "./run-redactor.ts";
import { readSettings } from "./run-settings.ts";

/** The config source as run.json records it: the path as the user would type it. */
function configOf(config: ConfigSource | undefined): { config?: { file: string; environment: string } } {
  return config === undefined
    ? {}
    : { config: { file: displayPath(config.file), environment: config.environment } };
}

const PART_MARK = { passed: "✔", failed: "✖", undecided: "?", aborted: "■", skipped: "–" } as const;
/** How many of a part's failures the log's end lists; its summary.md has them all. */
const LEAD_ITEMS = 6;
/** How much of one failure's message the log's end shows. */
const LEAD_CHARS = 220;

function shortened(text: string): string {
  return text.length <= LEAD_CHARS ? text : `${text.slice(0, LEAD_CHARS - 1)}…`;
}

/**
 * `event-harness run`: reads and checks everything first (a mistake is exit 2 with nothing run), runs the parts one
 * after the other through the pipelines their commands delegate to, then writes one report and prints one verdict.
 */
export async function runAll(options: RunOptionValues, io: CommandIo): Promise<number> {
  const settings = await readSettings(options, io.env, io);
  const { runDir, runId, external } = settings;
  const redactor = runRedactor(external, DEMO_CLIENT, io.env);
  // The run's own words go out as they are; the URLs the user gave are redacted as values, parts redact their own.
  const out = (text: string) => void io.stdout.write(text);
  const plans = planParts(settings);
  const context: PartContext = {
    io,
    env: { ...io.env, ...settings.partEnv },
    runDir,
    external,
  };

  // Before the first part: a run whose report cannot be written, or whose directory is not its own, is not started.
  await claimReportDir(runDir, "--report-dir", "run");
  const { unreadIssuer } = settings;
  const against = external
    ? `${redactor.redact(external.baseUrl)} (${describeTokenEndpoint(tokenEndpointFacts(external), (url) => redactor.redact(url))}, client authentication ${external.clientAuth})`
    : unreadIssuer !== undefined
      ? `the target of the issuer ${redactor.redact(unreadIssuer.issuer)}`
      : `the ${EMBEDDED_SANDBOX_NOTE}`;
  const config = configSourceOf(io.env);
  const from = config === undefined ? "" : `, settings from ${describeConfigSource(config)}`;
  const { overrides } = settings;
  // Names only, made inert: a token parameter's name is the user's own text.
  const overridden = overrides.length === 0 ? "" : `; overrides: ${overrides.map(inertText).join(", ")}`;
  out(
    `event-harness run ${runId}: ${plans.map((plan) => plan.id).join(", ")} against ${against}${from}${overridden}\n`,
  );
  out(`Reports: ${displayPath(runDir)}/\n`);
  const { couldNotTest, target } =
    unreadIssuer === undefined
      ? await preflightOnce(external, redactor, io)
      : unreadTarget(unreadIssuer.reason, io);
  // Every part is handed the target as resolved and preflighted here: none resolves it again.
  const handed: PartContext = { ...context, external: target };
  const outcomes: PartOutcome[] = [];
  for (const [index, plan] of plans.entries()) {
    if (couldNotTest !== undefined) {
      outcomes.push(notRun(plan, handed, "not run: the preflight could not test the target"));
      continue;
    }
    if (!io.signal.aborted) out(`\n━━ [${index + 1}/${plans.length}] ${plan.title} ━━\n`);
    const outcome = await executePart(plan, handed);
    outcomes.push(outcome);
    if (outcome.verdict !== "skipped") {
      out(`→ ${plan.id}: ${outcome.verdict} in ${formatDuration(outcome.durationMs)}\n`);
    }
  }

  const aborted = io.signal.aborted ? interruption(io.signal) : undefined;
  const verdict = combineVerdicts(outcomes, aborted !== undefined);
  const outcome: RunOutcome = {
    tool: toolInfo(),
    runId,
    startedAt: settings.started.toISOString(),
    durationMs: Date.now() - settings.started.getTime(),
    verdict,
    ...(aborted === undefined ? {} : { aborted }),
    ...(couldNotTest === undefined ? {} : { couldNotTest }),
    // What the parts ran with: the client authentication the preflight settled on.
    target: target
      ? {
          embedded: false,
          ...mapTokenEndpointFacts(tokenEndpointFacts(target), (url) => redactor.redact(url)),
          baseUrl: redactor.redact(target.baseUrl),
          clientAuth: target.clientAuth,
          insecure: target.connection.insecure,
          ...configOf(config),
        }
      : unreadIssuer !== undefined
        ? { embedded: false, issuer: redactor.redact(unreadIssuer.issuer), ...configOf(config) }
        : { embedded: true, ...configOf(config) },
    ...(overrides.length === 0 ? {} : { overrides }),
    // The lines that repeat each part name the target's URLs, redacted as every other value the run shows.
    parts: outcomes.map((part) => ({ ...part, command: redactor.redact(part.command) })),
  };
  const indexPath = displayPath(path.join(runDir, "index.html"));
  const { run, clauses, leads } = await writeRunReport(runDir, outcome, indexPath);

  const width = Math.max(...outcomes.map((part) => part.title.length));
  out("\n━━ Verdict ━━\n");
  for (const part of run.parts) {
    const note = part.note ? `  (${part.note})` : "";
    const gate = part.gate ? `  ${part.gate}` : "";
    out(
      `  ${PART_MARK[part.verdict]} ${part.verdict.padEnd(10)} ${part.title.padEnd(width)}  ${formatDuration(part.durationMs)}${note}${gate}\n`,
    );
  }
  // The log's end says what failed and where its evidence is: a CI log is read from its last lines.
  if (couldNotTest !== undefined) out(`Could not test the target: ${couldNotTest}\n`);
  if (leads.length > 0) out("What did not pass:\n");
  for (const lead of leads) {
    const evidence =
      lead.evidence === undefined ? "" : ` (evidence: ${displayPath(path.join(runDir, lead.evidence))})`;
    out(`  ${PART_MARK[lead.part.verdict]} ${lead.part.id}${evidence}\n`);
    for (const item of lead.items.slice(0, LEAD_ITEMS)) out(`      ${shortened(describeLeadItem(item))}\n`);
    if (lead.items.length > LEAD_ITEMS) out(`      … and ${lead.items.length - LEAD_ITEMS} more\n`);
  }
  if (clauses.staleWarning !== undefined) out(`WARNING: ${clauses.staleWarning}\n`);
  out(
    `Report:  ${indexPath}\nSummary: ${displayPath(path.join(runDir, "summary.md"))}\nJUnit:   ${displayPath(path.join(runDir, "junit.xml"))}\n`,
  );
  const counted = `${clauses.count} (${formatDuration(run.durationMs)}${external || unreadIssuer ? "" : `, ${EMBEDDED_SANDBOX_NOTE}`})`;
  out(
    `Verdict: ${clauses.title}${aborted === undefined ? "" : ` (${aborted})`}${couldNotTest === undefined ? "" : " (could not test the target: see above)"} — ${[...clauses.leading, counted, ...clauses.trailing].join(" · ")}\n`,
  );
  return runExitCode(verdict);
}

/**
 * Diagnose before judging, once for the whole run: a named target that cannot be tested is said here and no part
 * runs; one whose defaulted client authentication was refused while the other works runs its parts with that one
 * (a given --client-auth is kept, and the parts judge it).
 */
async function preflightOnce(
  external: Target | undefined,
  redactor: Redactor,
  io: CommandIo,
): Promise<{ readonly couldNotTest?: string; readonly target: Target | undefined }> {
  // The embedded sandbox is started by each part on its own port: there is nothing to reach before them.
  if (external === undefined) return { target: undefined };
  const { diagnoseTarget, switchedNote } = await import("../preflight/index.ts");
  try {
    const ready = await diagnoseTarget(
      external,
      { clientId: external.clientId, clientSecret: external.clientSecret.reveal() },
      redactor,
      io.signal,
      { requireToken: false },
    );
    const note = switchedNote(external.clientId, ready);
    if (note === undefined) return { target: external };
    io.stderr.write(`event-harness: ${note}\n`);
    return { target: { ...external, clientAuth: ready.clientAuth } };
  } catch (error) {
    if (!(error instanceof CannotRunError)) throw error;
    io.stderr.write(`event-harness: ${error.message}\n`);
    return { couldNotTest: error.message, target: external };
  }
}

/** An issuer whose metadata nobody answered for: could not test, said as the preflight says it, and no part runs. */
function unreadTarget(
  reason: string,
  io: CommandIo,
): { readonly couldNotTest: string; readonly target: undefined } {
  io.stderr.write(`event-harness: ${reason}\n`);
  return { couldNotTest: reason, target: undefined };
}

/** The outcome of a part the preflight kept from running. */
function notRun(plan: PartPlan, context: PartContext, note: string): PartOutcome {
  return {
    id: plan.id,
    kind: plan.kind,
    title: plan.title,
    command: reproduceCommand(plan, context.external, configSourceOf(context.env)),
    startedAt: new Date().toISOString(),
    verdict: "skipped",
    exitCode: null,
    durationMs: 0,
    note,
  };
}
