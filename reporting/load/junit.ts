import type { JunitCase, JunitOutcome, JunitSuite } from "../index.ts";
import { renderJunitXml } from "../index.ts";
import type { ReportInput } from "./markdown.ts";
import type { LoadResult } from "./run-result.ts";
import { describeResult } from "./run-result.ts";
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
  { context, facts, thresholds, verdict, result }: ReportInput,
  extraSuites: readonly JunitSuite[] = [],
): string {
  const suite = `load.${context.scenario}`;
  const cases: JunitCase[] = thresholds.map((t) => ({
    name: `${t.metric}: ${t.expression}`,
    classname: `${suite}.thresholds`,
    seconds: 0,
    outcome: t.ok
      ? { kind: "passed" }
      : {
          kind: "failure",
          message: `threshold crossed${t.observed ? `: ${t.observed}` : ""}`,
          type: "threshold",
        },
  }));
  cases.push({ name: "sliding expiry", classname: suite, seconds: 0, outcome: verdictOutcome(verdict) });
  cases.push(...runCase(suite, result));
  return renderJunitXml({
    name: "event-harness load",
    seconds: facts.runSeconds,
    suites: [{ name: suite, seconds: facts.runSeconds, cases }, ...extraSuites],
  });
}
