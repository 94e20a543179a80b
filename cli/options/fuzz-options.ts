import { UsageError } from "../../core/index.ts";
import type { OptionSpecs, ParsedOptions } from "../command.ts";
import { parseInteger, parseNumber } from "./parse-option-value.ts";

/** The property-based stage's options: how many inputs, for how long, and replaying one counterexample. */
export const fuzzOptions = {
  "fuzz-runs": {
    type: "string",
    valueName: "N",
    range: { min: 0, max: 100_000 },
    description:
      "Random inputs each property-based check draws after its coverage (every class's boundaries, always sent), spread over its classes (default 25 in the fast profile, 200 in the full one; 0 sends none: the checks SKIP).",
  },
  "fuzz-time": {
    type: "string",
    valueName: "SECONDS",
    range: { min: 1, max: 24 * 3600 },
    description:
      "Time the property-based checks share for their search (default 20 fast, 60 full); a check that finds a failure gets its share again, at least 30 s, to shrink it. A limit stops new inputs, never one in flight: its answer is judged however late.",
  },
  "fuzz-replay": {
    type: "string",
    valueName: "PATH",
    description:
      "Replay one counterexample instead of exploring: the path its report gives (CLASS to send a class's boundaries again, CLASS:PATH for a drawn input), with the same --seed, --fuzz-runs and --only naming its check. A path no such run can report (past the inputs --fuzz-runs draws, or more shrink steps than a check takes) is a usage error.",
  },
} as const satisfies OptionSpecs;

export type FuzzOptionValues = ParsedOptions<typeof fuzzOptions>;

/** A class's key (`[via/]field/name`), then optionally a colon and fast-check's path. */
const REPLAY_PATH = /^[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+){1,2}(?::[0-9]+)*$/;

/**
 * The stage's settings from the options over the profile's defaults. A replay needs the seed of the run it comes
 * from and exactly one property-based check: a path means nothing for another seed or another check. It must be a
 * path such a run can report (`replayProblem`, the stage's own rule): walking one costs CPU before anything is sent.
 */
export function parseFuzzOptions(
  options: FuzzOptionValues & { readonly seed?: string | undefined },
  defaults: { readonly runs: number; readonly timeBudgetMs: number },
  selectedPropertyChecks: readonly string[],
  replayProblem: (path: string, runs: number) => string | undefined,
): { readonly runs: number; readonly timeBudgetMs: number; readonly replayPath?: string } {
  const runs = parseInteger("fuzz-runs", options["fuzz-runs"], {
    ...fuzzOptions["fuzz-runs"].range,
    fallback: defaults.runs,
  });
  const seconds = parseNumber("fuzz-time", options["fuzz-time"], {
    ...fuzzOptions["fuzz-time"].range,
    fallback: defaults.timeBudgetMs / 1000,
  });
  const replayPath = options["fuzz-replay"]?.trim();
  if (replayPath === undefined) return { runs, timeBudgetMs: Math.round(seconds * 1000) };
  if (!REPLAY_PATH.test(replayPath)) {
    const shown =
      replayPath.length > 40 ? `${replayPath.slice(0, 40)}… (${replayPath.length} characters)` : replayPath;
    throw new UsageError(
      "invalid-value",
      `--fuzz-replay takes a class and a path such as customer.email/idna-u-label:17:3:0, or a class alone, got '${shown}'`,
    );
  }
  const problem = replayProblem(replayPath, runs);
  if (problem !== undefined) throw new UsageError("invalid-value", problem);
  if (options.seed === undefined)
    throw new UsageError(
      "invalid-config",
      "--fuzz-replay needs the --seed of the run that found the counterexample",
    );
  if (selectedPropertyChecks.length !== 1) {
    throw new UsageError(
      "invalid-config",
      `--fuzz-replay needs --only to select exactly one property-based check (${selectedPropertyChecks.length === 0 ? "none is selected" : `selected: ${selectedPropertyChecks.join(", ")}`})`,
    );
  }
  return { runs, timeBudgetMs: Math.round(seconds * 1000), replayPath };
}
