import type { FaultName } from "../../sandbox/index.ts";
import { FAULTS, isFaultName } from "../../sandbox/index.ts";
import { UsageError } from "../cli/usage-error.ts";

/** Checks --sandbox-fault names against the sandbox's faults. */
export function parseSandboxFaults(raw: readonly string[]): FaultName[] {
  return raw.map((name) => {
    if (!isFaultName(name)) {
      throw new UsageError(
        "invalid-value",
        `unknown --sandbox-fault '${name}' (one of: ${FAULTS.map((f) => f.name).join(", ")})`,
        "load",
      );
    }
    return name;
  });
}
