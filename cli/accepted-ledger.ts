import { UsageError } from "../core/index.ts";
import type { Ledger, LedgerScope } from "../reporting/accepted/index.ts";
import { LEDGER_IDS, readLedger, utcDay } from "../reporting/accepted/index.ts";
import type { Target } from "../transport/index.ts";
import { didYouMean } from "./did-you-mean.ts";
import { configSourceOf } from "./options/config-options.ts";
import { acceptedOption } from "./options/gate-options.ts";

/** What a run is against, for the ledger's bound entries: the config environment taken and the API's base URL. */
export function ledgerScope(external: Target | undefined, env: NodeJS.ProcessEnv): LedgerScope {
  return {
    environment: configSourceOf(env)?.environment,
    target: external === undefined ? "embedded" : { baseUrl: external.baseUrl },
  };
}

/**
 * Reads the ledger the user named, before any request; a malformed one is a usage error naming the entry. `scope`
 * is what the run is against; without it (a command that judges recorded runs) no bound entry applies.
 */
export async function resolveLedger(
  option: string | undefined,
  env: NodeJS.ProcessEnv,
  scope?: LedgerScope,
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
  return scope === undefined ? reading.ledger : { ...reading.ledger, scope };
}
