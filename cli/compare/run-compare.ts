import { UsageError } from "../../core/index.ts";
import { applyToComparison, describeOutcomes } from "../../reporting/accepted/index.ts";
import type { LoadComparison } from "../../reporting/compare/index.ts";
import {
  compareContract,
  compareLoadInterruptibly,
  comparisonStatus,
  failsRun,
  renderComparisonText,
  renderContractComparisonText,
  settingsDifferences,
  targetMismatches,
} from "../../reporting/compare/index.ts";
import { inertText } from "../../transport/index.ts";
import { resolveLedger } from "../accepted-ledger.ts";
import type { CommandIo } from "../command.ts";
import { ExitCode } from "../exit-codes.ts";
import { interruption } from "../interruption.ts";
import type { CompareCommandValues } from "../options/compare-options.ts";
import type { Comparable } from "./read-comparable.ts";
import { checkComparable, readComparable } from "./read-comparable.ts";
import { readCompareOptions, readFailOn } from "./read-compare-options.ts";

/** SIGINT or SIGTERM came before the comparison was judged: could not decide (exit 3), said in one line. */
function interrupted(io: CommandIo): number {
  io.stderr.write(`event-harness compare: ${interruption(io.signal)} before the comparison was judged\n`);
  return ExitCode.undecided;
}

/** `event-harness compare BASE CANDIDATE`: judges a candidate run against a baseline after the fact. */
export async function runCompare(
  baseArg: string,
  candidateArg: string,
  options: CompareCommandValues,
  io: CommandIo,
): Promise<number> {
  const compareOptions = readCompareOptions(options, "compare");
  const failOn = readFailOn(options);
  const ledger = await resolveLedger(options.accepted, io.env);
  let base: Comparable;
  let candidate: Comparable;
  try {
    [base, candidate] = await Promise.all([
      readComparable(baseArg, "compare", io.signal),
      readComparable(candidateArg, "compare", io.signal),
    ]);
  } catch (error) {
    if (!io.signal.aborted) throw error;
    return interrupted(io);
  }
  if (base.kind === "contract" && candidate.kind === "contract") {
    const comparison = compareContract(base.run, candidate.run);
    io.stdout.write(
      `${base.name} → ${candidate.name}\n${renderContractComparisonText(comparison, inertText)}`,
    );
    return comparison.newlyFailing.length > 0 ? ExitCode.failed : ExitCode.ok;
  }
  if (base.kind === "load" && candidate.kind === "load") {
    checkComparable(
      settingsDifferences(base.record, candidate.record),
      targetMismatches(base.record.target, candidate.record.target, options["allow-latency-change"] === true),
      "compare",
    );
    let judged: LoadComparison;
    try {
      judged = await compareLoadInterruptibly(base.record, candidate.record, compareOptions, io.signal);
    } catch (error) {
      if (!io.signal.aborted) throw error;
      return interrupted(io);
    }
    const { comparison, outcomes } = applyToComparison(judged, ledger);
    io.stdout.write(`${candidate.name}\n${renderComparisonText(comparison, base.name)}`);
    if (outcomes.length > 0) {
      io.stdout.write(
        `  Accepted deviations (${ledger?.file ?? "ledger"})\n${describeOutcomes(outcomes)
          .map((line) => `    ${line}\n`)
          .join("")}`,
      );
    }
    return failsRun(comparisonStatus(comparison), failOn) ? ExitCode.failed : ExitCode.ok;
  }
  throw new UsageError(
    "invalid-config",
    `cannot compare a ${base.kind} run (${base.name}) with a ${candidate.kind} run (${candidate.name})`,
    "compare",
  );
}
