import type { OptionSpecs } from "../command.ts";
import { parseNumber } from "./parse-option-value.ts";

/** The contract run's overall deadline, for commands that run the contract suite (contract, run). */
export const runTimeoutOption = {
  "run-timeout": {
    type: "string",
    valueName: "SECONDS",
    env: "EVENT_API_RUN_TIMEOUT",
    range: { min: 1, max: 7 * 24 * 3600 },
    description:
      "Deadline of the whole contract run (default 120 s + 12 × --timeout, stretched in the full profile (3 h at most) to the " +
      "sliding-expiry probes' horizon); unfinished checks are then ERROR.",
  },
} as const satisfies OptionSpecs;

function pick(option: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  const value = option ?? env[runTimeoutOption["run-timeout"].env];
  return value === undefined || value.trim() === "" ? undefined : value;
}

/** The user's fixed run deadline in ms, or undefined for the derived one. */
export function resolveRunTimeoutMs(option: string | undefined, env: NodeJS.ProcessEnv): number | undefined {
  const raw = pick(option, env);
  if (raw === undefined) return undefined;
  const seconds = parseNumber("run-timeout", raw, { ...runTimeoutOption["run-timeout"].range, fallback: 0 });
  return Math.round(seconds * 1000);
}

/** The option as the environment variable a part's command reads (run hands flags to parts this way). */
export function runTimeoutEnvironment(
  option: string | undefined,
  env: NodeJS.ProcessEnv,
): Record<string, string> {
  const raw = pick(option, env);
  return raw === undefined ? {} : { [runTimeoutOption["run-timeout"].env]: raw };
}
