import type { Ledger } from "../reporting/accepted/index.ts";
import { CONTRACT_CHECK_IDS, readLedger, utcDay } from "../reporting/accepted/index.ts";
import type { OptionSpecs } from "./command.ts";
import { didYouMean } from "./did-you-mean.ts";
import { UsageError } from "./usage-error.ts";

/** The ledger of accepted deviations, for every command that judges checks or load gates. */
export const acceptedOption = {
  accepted: {
    type: "string",
    valueName: "FILE",
    env: "EVENT_HARNESS_ACCEPTED",
    description:
      "Ledger of accepted deviations (JSON: accepted: [{id, reason, ticket, expires}]): a failing accepted check or " +
      "load gate is WAIVED until its expires date, then fails again.",
  },
} as const satisfies OptionSpecs;

/** Reads the ledger the user named, before any request; a malformed one is a usage error naming the entry. */
export async function resolveLedger(
  option: string | undefined,
  env: NodeJS.ProcessEnv,
  now: Date = new Date(),
): Promise<Ledger | undefined> {
  const raw = option ?? env[acceptedOption.accepted.env];
  if (raw === undefined || raw.trim() === "") return undefined;
  const reading = await readLedger(raw, utcDay(now));
  if (!reading.ok) {
    const { message, unknownId } = reading.problem;
    const hint = unknownId === undefined ? "" : didYouMean(unknownId, CONTRACT_CHECK_IDS);
    throw new UsageError("invalid-config", `${message}${hint}`);
  }
  return reading.ledger;
}
