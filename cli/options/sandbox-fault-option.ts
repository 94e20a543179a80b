import { UsageError } from "../../core/index.ts";
import type { FaultName } from "../../sandbox/index.ts";
import { didYouMean } from "../did-you-mean.ts";

/**
 * Checks the names given to a command's --sandbox-fault against the sandbox's faults (listing them all on a typo).
 * The sandbox module is loaded only when a fault is named, so commands stay quick to start.
 */
export async function parseSandboxFaults(raw: readonly string[], command: string): Promise<FaultName[]> {
  if (raw.length === 0) return [];
  const { FAULTS, isFaultName } = await import("../../sandbox/index.ts");
  const unknown = raw.filter((name) => !isFaultName(name));
  const names = FAULTS.map((fault) => fault.name);
  if (unknown.length > 0) {
    throw new UsageError(
      "invalid-value",
      `unknown --sandbox-fault ${unknown.map((name) => `'${name}'`).join(", ")}${didYouMean(unknown[0] ?? "", names)} (one of: ${names.join(", ")})`,
      command,
    );
  }
  return [...new Set(raw as readonly FaultName[])];
}
