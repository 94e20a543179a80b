import type { Ledger } from "../reporting/accepted/index.ts";
import type { Target } from "../transport/index.ts";
import { ledgerScope, resolveLedger } from "./accepted-ledger.ts";
import type { CommandIo, ParsedOptions } from "./command.ts";
import { compactTimestamp } from "./compact-timestamp.ts";
import { resolveTargetWithIssuer } from "./issuer-target.ts";
import type { acceptedOption } from "./options/gate-options.ts";
import type { runTimeoutOption } from "./options/run-timeout-option.ts";
import { resolveRunTimeoutMs } from "./options/run-timeout-option.ts";
import type { TargetTuning, targetOptions } from "./options/target-options.ts";
import { resolveTargetTuning } from "./options/target-options.ts";
import { claimReportDir, createReportDir } from "./report-dir.ts";

/** The options a checks run (contract, verify-rotation) sets itself up from. */
export interface RunSetupOptions
  extends ParsedOptions<typeof targetOptions & typeof acceptedOption & typeof runTimeoutOption> {
  "report-dir"?: string;
}

/** Where the one command differs from the other. */
export interface RunSetupSpec {
  /** The command's name, for its messages. */
  readonly command: string;
  /** Where each run gets a fresh report directory of its own without --report-dir. */
  readonly defaultReportParent: string;
  /** Whether the command has a run deadline (--run-timeout and its environment variable). */
  readonly runTimeout: boolean;
}

export interface RunSetup<T> {
  /** The target the user named, or undefined for the embedded sandbox. */
  readonly external: Target | undefined;
  readonly tuning: TargetTuning;
  /** The user's fixed run deadline, undefined for the derived one or a command without one. */
  readonly runTimeoutMs: number | undefined;
  readonly ledger: Ledger | undefined;
  readonly reportDir: string;
  /** What the command's own checks returned. */
  readonly vetted: T;
}

/**
 * The setup the contract and rotation runs share, in one order: the target (with --issuer), its tuning, the run
 * deadline, then the command's own checks of its options (`vet`), then the ledger and the report directory, so a
 * mistake is a usage error before anything is written, a sandbox starts or a request goes out.
 */
export async function setUpRun<T>(
  options: RunSetupOptions,
  io: CommandIo,
  spec: RunSetupSpec,
  vet: (external: Target | undefined) => T | Promise<T>,
): Promise<RunSetup<T>> {
  const external = await resolveTargetWithIssuer(options, io.env, io);
  const tuning = resolveTargetTuning(options, io.env);
  const runTimeoutMs = spec.runTimeout ? resolveRunTimeoutMs(options["run-timeout"], io.env) : undefined;
  const vetted = await vet(external);
  const ledger = await resolveLedger(options.accepted, io.env, ledgerScope(external, io.env));
  const reportDir =
    options["report-dir"] !== undefined
      ? await claimReportDir(options["report-dir"], "--report-dir", spec.command)
      : await createReportDir(spec.defaultReportParent, compactTimestamp(new Date()), spec.command);
  return { external, tuning, runTimeoutMs, ledger, reportDir, vetted };
}
