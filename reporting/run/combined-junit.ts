import { renderJunitXml, xmlText } from "../junit-xml.ts";
import type { PartOutcome, RunOutcome } from "./run-outcome.ts";

/** One part's junit.xml as its command wrote it, or undefined when it wrote none. */
export interface PartJunit {
  readonly part: PartOutcome;
  readonly xml: string | undefined;
}

// Our JUnit writer puts every <testsuite> open and close tag on a line of its own, two spaces in; text inside is
// escaped (no raw "<"), so such a line is always a tag.
const SUITE = /^ {2}<testsuite\b[^\n]*>\n[\s\S]*?^ {2}<\/testsuite>$/gm;
const SUITE_NAME = /^( {2}<testsuite name=")([^"]*)"/;
const COUNT = (name: string) => new RegExp(` ${name}="(\\d+)"`);

function countOf(openTag: string, name: string): number {
  return Number(COUNT(name).exec(openTag)?.[1] ?? 0);
}

/** A part that left no JUnit file is an error case of its own, so CI never reads its absence as green. */
function missingSuite(part: PartOutcome): string {
  const lines = renderJunitXml({
    name: "",
    seconds: part.durationMs / 1000,
    suites: [
      {
        name: part.id,
        seconds: part.durationMs / 1000,
        timestamp: part.startedAt,
        cases: [
          {
            name: "part",
            classname: `event-api-harness.run.${part.id}`,
            seconds: part.durationMs / 1000,
            outcome:
              part.verdict === "passed"
                ? { kind: "passed" }
                : part.verdict === "skipped"
                  ? { kind: "skipped", message: part.note ?? "not run" }
                  : {
                      kind: "error",
                      message: `${part.verdict}: ${part.note ?? "no junit.xml"}`,
                      type: part.verdict,
                    },
          },
        ],
      },
    ],
  });
  return (lines.match(SUITE) ?? []).join("\n");
}

/**
 * The run's one junit.xml: every part's test suites, their names prefixed with the part (`contract: Token issuance`),
 * and the root's counts summed from them.
 */
export function renderCombinedJunit(run: RunOutcome, parts: readonly PartJunit[]): string {
  const suites: string[] = [];
  for (const { part, xml } of parts) {
    const found = xml?.match(SUITE) ?? [];
    if (found.length === 0) {
      suites.push(missingSuite(part));
      continue;
    }
    for (const suite of found) {
      suites.push(
        suite.replace(
          SUITE_NAME,
          (_all, open: string, name: string) => `${open}${xmlText(part.id)}: ${name}"`,
        ),
      );
    }
  }
  const openTags = suites.map((suite) => suite.slice(0, suite.indexOf("\n")));
  const sum = (name: string) => openTags.reduce((total, tag) => total + countOf(tag, name), 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="event-api-harness run ${xmlText(run.runId)}" tests="${sum("tests")}" failures="${sum("failures")}" errors="${sum("errors")}" skipped="${sum("skipped")}" time="${(run.durationMs / 1000).toFixed(3)}">`,
    ...suites,
    "</testsuites>",
    "",
  ].join("\n");
}
