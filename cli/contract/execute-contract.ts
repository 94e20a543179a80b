import type {
  CheckResult,
  ClientAuth,
  ContractSettings,
  KnownLifetime,
  Target,
} from "../../contracts/index.ts";
import { CannotRunError } from "../../core/index.ts";
import { EMBEDDED_SANDBOX_NOTE, formatDuration } from "../../reporting/index.ts";
import { describeTokenEndpoint, tokenEndpointFacts } from "../../transport/index.ts";
import type { CommandIo } from "../command.ts";
import { ProgressLine } from "../progress-line.ts";
import type { PreparedContract } from "./prepare-contract.ts";

/** What the run found: the checks' results and the target as judged. */
export interface ContractExecution {
  /** The target as judged, with the client authentication the preflight settled on. */
  readonly target: Target;
  readonly checks: CheckResult[];
  /** Why the preflight could not test the target; then every check is SKIP. */
  readonly couldNotTest?: string;
}

// The harness's words go out as they are; only the URLs the user gave are redacted, as values.
function announceTarget(prepared: PreparedContract, io: CommandIo): void {
  const { configured, redactor, sandbox, profile, faults } = prepared;
  const url = (value: string) => redactor.redact(value);
  io.stderr.write(
    `Contract ${profile} profile against ${url(configured.baseUrl)} (${describeTokenEndpoint(tokenEndpointFacts(configured), url)}, client authentication ${configured.clientAuth})` +
      `${sandbox ? `, ${EMBEDDED_SANDBOX_NOTE}${faults.length > 0 ? ` with fault ${faults.join(", ")}` : ""}` : ""}\n`,
  );
}

async function announceDeadlines(prepared: PreparedContract, io: CommandIo): Promise<void> {
  const { lifetimeMarginSeconds, MAX_STRETCHED_RUN_MS } = await import("../../contracts/index.ts");
  const { sandbox, profile, expiresIn, tuning, deadline } = prepared;
  if (profile === "full") {
    io.stderr.write(
      `Sliding-expiry probes wait about expires_in + max(2 s, 10 %)${sandbox ? ` = ${expiresIn + lifetimeMarginSeconds(expiresIn)} s` : ""}.\n`,
    );
  }
  io.stderr.write(
    `Deadline: ${formatDuration(tuning.timeoutMs)} per request, ${formatDuration(deadline.budgetMs)} for the run` +
      `${deadline.fixed ? " (--run-timeout)" : profile === "full" ? `, stretched to the sliding-expiry probes' horizon (${formatDuration(MAX_STRETCHED_RUN_MS)} at most)` : ""}.\n`,
  );
}

/** Diagnoses the target before judging it: a target that cannot be tested is said once and judged not at all. */
async function preflight(
  prepared: PreparedContract,
  io: CommandIo,
): Promise<
  | { readonly clientAuth: ClientAuth; readonly knownLifetime?: KnownLifetime }
  | { readonly couldNotTest: string }
> {
  const { diagnoseTarget, switchedNote } = await import("../preflight/index.ts");
  const { configured, redactor, sandbox } = prepared;
  let ready: Awaited<ReturnType<typeof diagnoseTarget>> = { clientAuth: configured.clientAuth };
  try {
    // The embedded sandbox is the harness's own: its faults are there to be judged, not diagnosed away.
    if (!sandbox)
      ready = await diagnoseTarget(
        configured,
        { clientId: configured.clientId, clientSecret: configured.clientSecret.reveal() },
        redactor,
        io.signal,
        { requireToken: false },
      );
  } catch (error) {
    if (!(error instanceof CannotRunError)) throw error;
    io.stderr.write(`event-harness: ${error.message}\n`);
    return { couldNotTest: error.message };
  }
  const note = switchedNote(configured.clientId, ready);
  if (note !== undefined) io.stderr.write(`event-harness: ${note}\n`);
  return { clientAuth: ready.clientAuth, ...knownLifetime(prepared, ready.token?.expiresInSeconds) };
}

/** The expires_in the run knows before the checks start: the embedded sandbox's setting, or the preflight's token. */
function knownLifetime(
  prepared: PreparedContract,
  preflightExpiresIn: number | undefined,
): { readonly knownLifetime?: KnownLifetime } {
  if (prepared.sandbox) {
    return { knownLifetime: { expiresIn: prepared.expiresIn, source: "the embedded sandbox's setting" } };
  }
  return preflightExpiresIn === undefined
    ? {}
    : { knownLifetime: { expiresIn: preflightExpiresIn, source: "the one the preflight's token announced" } };
}

/** Every selected check as SKIP, for a target the preflight could not test. */
async function skippedChecks(prepared: PreparedContract): Promise<CheckResult[]> {
  const { selectChecks } = await import("../../contracts/index.ts");
  return selectChecks(prepared.profile, prepared.only).map((check) => ({
    id: check.id,
    title: check.title,
    area: check.area,
    level: check.level,
    rule: check.rule,
    status: "SKIP" as const,
    message: "not run: the preflight could not test the target",
    durationMs: 0,
    evidence: [],
  }));
}

/** Runs the suite: says what it runs against, diagnoses the target, then runs the selected checks under vitest. */
export async function executeContract(prepared: PreparedContract, io: CommandIo): Promise<ContractExecution> {
  const { runContract } = await import("./run-contract.ts");
  announceTarget(prepared, io);
  const ready = await preflight(prepared, io);
  if ("couldNotTest" in ready) {
    const checks = await skippedChecks(prepared);
    return { target: prepared.configured, checks, couldNotTest: ready.couldNotTest };
  }
  const target = { ...prepared.configured, clientAuth: ready.clientAuth };
  await announceDeadlines(prepared, io);
  const { profile, only, seed, started, deadline, fuzz } = prepared;
  const settings: ContractSettings = {
    target: { ...target, clientSecret: target.clientSecret.reveal() },
    profile,
    only,
    seed,
    runId: `c${started.toString(36)}`,
    deadline,
    fuzz,
    ...(ready.knownLifetime === undefined ? {} : { knownLifetime: ready.knownLifetime }),
  };
  const progress = prepared.quiet ? undefined : new ProgressLine(io.stderr);
  const checks = await runContract(settings, {
    ...(progress === undefined ? {} : { onProgress: (_checkId, message) => progress.show(`  … ${message}`) }),
    signal: io.signal,
  }).finally(() => progress?.end());
  return { target, checks };
}
