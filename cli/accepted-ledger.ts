import { UsageError } from "../core/index.ts";
import type { Ledger } from "../reporting/accepted/index.ts";
import { LEDGER_IDS, readLedger, utcDay } from "../reporting/accepted/index.ts";
import { acceptedOption } from "./accepted-option.ts";
import { didYouMean } from "./did-you-mean.ts";

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
    const hint = unknownId === undefined ? "" : didYouMean(unknownId, LEDGER_IDS);
    throw new UsageError("invalid-config", `${message}${hint}`);
  }
  return reading.ledger;
}
