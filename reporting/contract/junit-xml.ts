import type { CheckResult } from "../../contracts/index.ts";
import { AREA_TITLES, CHECK_AREAS } from "../../contracts/index.ts";
import type { JunitCase, JunitOutcome } from "../index.ts";
import { renderJunitXml as renderJunit } from "../index.ts";
import { foundWhen } from "./found-when.ts";
import type { ContractRun } from "./run-summary.ts";
import { rerunOf } from "./run-summary.ts";

function evidenceText(check: CheckResult): string {
  return check.evidence
    .map(
      (item) =>
        `# ${item.label}\n${item.curl}\n=> ${item.response ? item.response.status : `error: ${item.error}`}`,
    )
    .join("\n\n");
}

function outcome(check: CheckResult, detail: string): JunitOutcome {
  switch (check.status) {
    case "FAIL":
      return { kind: "failure", message: check.message, type: check.level, detail };
    case "ERROR":
      return { kind: "error", message: check.message, type: "could-not-decide", detail };
    case "SKIP":
      return { kind: "skipped", message: check.message };
    // Accepted by the ledger: CI shows it skipped with the entry's reason, neither passed nor failed.
    case "WAIVED":
      return { kind: "skipped", message: `WAIVED: ${check.message}` };
    default:
      return { kind: "passed" };
  }
}

/** A property-based check's shrunk failure, whole, ahead of the evidence; `rerun` repeats the run it came from. */
function counterexampleText(check: CheckResult, rerun: string): string {
  const found = check.counterexample;
  if (found === undefined) return "";
  return [
    `Minimal input: ${found.what} (Content-Type ${found.contentType ?? "none"}; seed ${found.seed}, path ${found.path}; ${foundWhen(found)})`,
    found.input,
    `Replay: ${rerun} ${found.replay}`,
    "",
    "",
  ].join("\n");
}

function testCase(check: CheckResult, rerun: string): JunitCase {
  const detail = `[${check.level}] ${check.rule}: ${check.message}`;
  return {
    name: `${check.id}: ${check.title}`,
    classname: `event-api-harness.${check.area}`,
    seconds: check.durationMs / 1000,
    outcome: outcome(check, detail),
    // A WARN passes in JUnit; its status leads the output CI shows.
    output: `${check.status} ${detail}\n\n${counterexampleText(check, rerun)}${evidenceText(check)}`,
  };
}

/** An interrupted run is an error of its own, so CI never reads it green even when every check finished. */
function abortedSuite(run: ContractRun, seconds: number) {
  if (run.aborted === undefined && run.couldNotTest === undefined) return [];
  const outcome: JunitOutcome =
    run.aborted === undefined
      ? { kind: "error", message: `COULD NOT TEST: ${run.couldNotTest}`, type: "could-not-test" }
      : { kind: "error", message: `ABORTED: ${run.aborted}`, type: "aborted" };
  return [
    {
      name: "Run",
      seconds,
      timestamp: run.startedAt,
      cases: [{ name: "run", classname: "event-api-harness.run", seconds, outcome }],
    },
  ];
}

/**
 * junit.xml: one testsuite per area; FAIL is a failure, ERROR an error, SKIP and WAIVED skipped, WARN a pass with
 * output.
 */
export function renderJunitXml(run: ContractRun): string {
  const suites = CHECK_AREAS.map((area) => ({
    area,
    checks: run.checks.filter((check) => check.area === area),
  }))
    .filter(({ checks }) => checks.length > 0)
    .map(({ area, checks }) => ({
      name: AREA_TITLES[area],
      seconds: checks.reduce((sum, check) => sum + check.durationMs, 0) / 1000,
      timestamp: run.startedAt,
      cases: checks.map((check) => testCase(check, rerunOf(run))),
    }));
  const seconds = run.durationMs / 1000;
  return renderJunit({
    name: `event-api-harness ${run.suite}`,
    seconds,
    suites: [...suites, ...abortedSuite(run, seconds)],
  });
}
