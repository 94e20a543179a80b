import { describeOutcomes } from "../accepted/describe-outcomes.ts";
import type { EntryOutcome } from "../accepted/entry-outcome.ts";
import { inlineText } from "../index.ts";

/** A load page's "Accepted deviations" section, one line per ledger entry; nothing where the ledger named none. */
export function acceptedSection(outcomes: readonly EntryOutcome[]): string[] {
  if (outcomes.length === 0) return [];
  return ["## Accepted deviations", "", ...describeOutcomes(outcomes).map((l) => `- ${inlineText(l)}`), ""];
}
