import { describeOutcomes } from "../accepted/describe-outcomes.ts";
import { gateMatches } from "../accepted/gate-ids.ts";
import type { JunitCase, JunitOutcome, JunitSuite } from "../index.ts";
import { renderJunitXml } from "../index.ts";
import { generatorHeadline } from "./generator-limit.ts";
import type { LoadResult } from "./run-result.ts";
import { describeResult, thresholdStatus } from "./run-result.ts";
import type { ThresholdResult } from "./summary-data.ts";
import type { ReportInput } from "./summary-markdown.ts";
import type { SlidingExpiryVerdict } from "./verdict.ts";

function verdictOutcome(verdict: SlidingExpiryVerdict): JunitOutcome {
  const reasons = verdict.reasons.join(" ");
  switch (verdict.level) {
    case "broken":
      return { kind: "failure", message: "sliding expiry broken", type: "contract", detail: reasons };
    case "held":
      return { kind: "passed" };
    default:
      return { kind: "skipped", message: reasons };
  }
}

/** A waived threshold is skipped with the entry's reason: CI shows it, and it neither passes nor fails. */
function thresholdOutcome(t: ThresholdResult, result: LoadResult): JunitOutcome {
  const observed = t.observed ? `: ${t.observed}` : "";
  switch (thresholdStatus(t, result)) {
    case "PASS":
      return { kind: "passed" };
    case "WAIVED": {
      const line = describeOutcomes(
        result.accepted.filter((o) => o.state === "waived" && gateMatches(o.entry.id, t.metric)),
      );
      return { kind: "skipped", message: `WAIVED, threshold crossed${observed}; ${line.join("; ")}` };
    }
    case "FAIL": {
      const expired = result.accepted.filter(
        (o) => o.state === "expired" && gateMatches(o.entry.id, t.metric),
      );
      const note = expired.map((o) => `; ${o.entry.id} ${o.detail}`).join("");
      return { kind: "failure", message: `threshold crossed${observed}${note}`, type: "threshold" };
    }
  }
}

/** A run that did not finish is an error of its own: its thresholds alone would read green. */
function runCase(suite: string, result: LoadResult): JunitCase[] {
  if (result.outcome !== "aborted" && result.outcome !== "undecided") return [];
  const message = describeResult(result);
  return [
    {
      name: "run",
      classname: suite,
      seconds: 0,
      outcome: { kind: "error", message, type: result.outcome },
    },
  ];
}

/**
 * JUnit XML for CI: one test case per threshold, and one for the sliding-expiry verdict (skipped when it could not
 * be decided). Only the thresholds decide k6's exit code; the verdict case mirrors them for readers.
 */
export function renderJunit(
  { context, facts, thresholds, verdict, generator, result }: ReportInput,
  extraSuites: readonly JunitSuite[] = [],
): string {
  const suite = `load.${context.scenario}`;
  const cases: JunitCase[] = thresholds.map((t) => ({
    name: `${t.metric}: ${t.expression}`,
    classname: `${suite}.thresholds`,
    seconds: 0,
    outcome: thresholdOutcome(t, result),
  }));
  cases.push({ name: "sliding expiry", classname: suite, seconds: 0, outcome: verdictOutcome(verdict) });
  // A limited generator is no failure of the target, and no pass either: the run measured k6.
  cases.push({
    name: "load generator",
    classname: suite,
    seconds: 0,
    output: generator.measured,
    outcome: generator.limited
      ? {
          kind: "error",
          message:
            result.outcome === "failed"
              ? generatorHeadline(true).title
              : "the generator, not the API, limited this run",
          type: "generator",
          detail: generator.signals.map((s) => s.detail).join(" "),
        }
      : { kind: "passed" },
  });
  cases.push(...runCase(suite, result));
  return renderJunitXml({
    name: "event-harness load",
    seconds: facts.runSeconds,
    suites: [{ name: suite, seconds: facts.runSeconds, cases }, ...extraSuites],
  });
}
