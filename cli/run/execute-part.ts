import { stat } from "node:fs/promises";
import path from "node:path";
import type { Target } from "../../contracts/index.ts";
import { UsageError } from "../../core/index.ts";
import type { PartOutcome } from "../../reporting/run/index.ts";
import { partVerdictOf, TIME_SERIES_FILE, writeTimeSeriesFromK6Csv } from "../../reporting/run/index.ts";
import type { CommandIo } from "../command.ts";
import { ExitCode } from "../exit-codes.ts";
import { makeDirectory } from "../make-directory.ts";
import { configSourceOf } from "../options/config-options.ts";
import { closed, PartOutput } from "./part-output.ts";
import type { PartPlan } from "./part-plan.ts";
import { K6_CSV_FILE, reproduceCommand } from "./part-plan.ts";

export interface PartContext {
  readonly io: CommandIo;
  readonly env: NodeJS.ProcessEnv;
  readonly runDir: string;
  /** The target as the run resolved and preflighted it, handed to every part; undefined for the embedded sandbox. */
  readonly external: Target | undefined;
}

/**
 * Runs one part through the pipeline its command delegates to, as the CLI would; whatever happens, it ends with an
 * outcome, never a throw.
 */
export async function executePart(plan: PartPlan, context: PartContext): Promise<PartOutcome> {
  const { io, runDir } = context;
  const started = Date.now();
  const base = {
    id: plan.id,
    kind: plan.kind,
    title: plan.title,
    command: reproduceCommand(plan, context.external, configSourceOf(context.env)),
    startedAt: new Date(started).toISOString(),
  };
  if (io.signal.aborted) {
    return {
      ...base,
      verdict: "skipped",
      exitCode: null,
      durationMs: 0,
      note: "not run: the run was interrupted",
    };
  }
  const stdout = new PartOutput(io.stdout);
  const stderr = new PartOutput(io.stderr);
  let exitCode: number;
  let note: string | undefined;
  try {
    await makeDirectory(path.join(runDir, plan.id));
    exitCode = await runPipeline(plan, {
      stdout,
      stderr,
      env: context.env,
      signal: io.signal,
      ...(context.external === undefined ? {} : { resolvedTarget: context.external }),
      ...(io.configOverrides === undefined ? {} : { configOverrides: io.configOverrides }),
    });
  } catch (error) {
    // A part that cannot run is undecided, and the run goes on: one broken part must not hide the others.
    const message = error instanceof Error ? error.message : String(error);
    exitCode = error instanceof UsageError ? ExitCode.usage : ExitCode.undecided;
    note = error instanceof UsageError ? `could not run: ${message}` : `internal error: ${message}`;
    stderr.write(`event-harness: ${plan.id}: ${note}\n`);
  } finally {
    await Promise.all([closed(stdout), closed(stderr)]);
  }
  const csv = path.join(runDir, plan.id, K6_CSV_FILE);
  if (plan.kind === "load" && (await stat(csv).catch(() => undefined))) {
    try {
      await writeTimeSeriesFromK6Csv(csv, path.join(runDir, plan.id, TIME_SERIES_FILE));
    } catch (error) {
      io.stderr.write(
        `event-harness: ${plan.id}: no charts, k6's metrics could not be read: ${(error as Error).message}\n`,
      );
    }
  }
  if (exitCode !== ExitCode.ok && exitCode !== ExitCode.failed) {
    note ??= io.signal.aborted ? "interrupted" : stderr.lastError();
  }
  return {
    ...base,
    verdict: partVerdictOf(exitCode, io.signal.aborted),
    exitCode,
    durationMs: Date.now() - started,
    ...(note ? { note } : {}),
  };
}

/** The pipeline of the part's command, loaded only when a part of its kind runs, as its command loads it. */
async function runPipeline(plan: PartPlan, io: CommandIo): Promise<number> {
  switch (plan.kind) {
    case "contract":
      return (await import("../contract/index.ts")).runContractSuite(plan.options, io);
    case "load":
      return (await import("../load/index.ts")).runLoad(
        plan.scenario,
        { ...plan.options, ...plan.internal },
        io,
      );
    case "rotation":
      return (await import("../rotation/index.ts")).verifyRotation(plan.options, io);
  }
}
