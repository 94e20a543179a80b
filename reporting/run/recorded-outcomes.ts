import type { OutcomeFacts } from "../accepted/describe-outcomes.ts";
import type { EntryState } from "../accepted/entry-outcome.ts";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const STATES: readonly string[] = ["waived", "expired", "stale", "unobserved", "not-applied"];
const LEVELS: readonly string[] = ["MUST", "SHOULD", "INFO"];

/** The ledger outcomes a report recorded, as far as they are well formed; the rest is left out. */
export function asOutcomes(value: unknown): OutcomeFacts[] {
  return (Array.isArray(value) ? value : []).flatMap((outcome: unknown): OutcomeFacts[] => {
    if (!isObject(outcome) || typeof outcome.state !== "string" || !STATES.includes(outcome.state)) return [];
    const entry = isObject(outcome.entry) ? outcome.entry : {};
    const level =
      typeof outcome.level === "string" && LEVELS.includes(outcome.level) ? outcome.level : undefined;
    return [
      {
        state: outcome.state as EntryState,
        entry: {
          id: typeof entry.id === "string" ? entry.id : "",
          ...(typeof entry.expires === "string" ? { expires: entry.expires } : {}),
        },
        ...(level === undefined ? {} : { level: level as NonNullable<OutcomeFacts["level"]> }),
      },
    ];
  });
}
