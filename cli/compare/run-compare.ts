import { UsageError } from "../../core/index.ts";
import {
  compareContract,
  compareLoad,
  comparisonStatus,
  renderComparisonText,
  renderContractComparisonText,
  settingsDifferences,
} from "../../reporting/compare/index.ts";
import type { CommandIo } from "../command.ts";
import { ExitCode } from "../exit-codes.ts";
import type { CompareOptionValues } from "./compare-options.ts";
import { readCompareOptions } from "./compare-options.ts";
import { checkComparable, readComparable } from "./read-comparable.ts";

/** `event-harness compare BASE CANDIDATE`: judges a candidate run against a baseline after the fact. */
export async function runCompare(
  baseArg: string,
  candidateArg: string,
  options: CompareOptionValues,
  io: CommandIo,
): Promise<number> {
  const compareOptions = readCompareOptions(options, "compare");
  const [base, candidate] = await Promise.all([
    readComparable(baseArg, "compare"),
    readComparable(candidateArg, "compare"),
  ]);
  if (base.kind === "contract" && candidate.kind === "contract") {
    const comparison = compareContract(base.checks, candidate.checks);
    io.stdout.write(`${base.name} → ${candidate.name}\n${renderContractComparisonText(comparison)}`);
    return comparison.newlyFailing.length > 0 ? ExitCode.failed : ExitCode.ok;
  }
  if (base.kind === "load" && candidate.kind === "load") {
    checkComparable(settingsDifferences(base.record, candidate.record), "compare");
    const comparison = compareLoad(base.record, candidate.record, compareOptions);
    io.stdout.write(`${candidate.name}\n${renderComparisonText(comparison, base.name)}`);
    return comparisonStatus(comparison) === "REGRESSED" ? ExitCode.failed : ExitCode.ok;
  }
  throw new UsageError(
    "invalid-config",
    `cannot compare a ${base.kind} run (${base.name}) with a ${candidate.kind} run (${candidate.name})`,
    "compare",
  );
}
