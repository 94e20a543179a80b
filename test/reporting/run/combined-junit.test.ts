import { describe, expect, it } from "vitest";
import { renderJunitXml } from "../../../reporting/index.ts";
import type { PartOutcome, RunOutcome } from "../../../reporting/run/index.ts";
import { renderCombinedJunit } from "../../../reporting/run/index.ts";

const part = (id: string, verdict: PartOutcome["verdict"], note?: string): PartOutcome => ({
  id,
  kind: id === "contract" ? "contract" : "load",
  title: id,
  command: `event-harness ${id}`,
  verdict,
  exitCode: verdict === "passed" ? 0 : 1,
  startedAt: "2026-11-25T10:00:00.000Z",
  durationMs: 2000,
  ...(note === undefined ? {} : { note }),
});
const run = (parts: PartOutcome[]): RunOutcome => ({
  tool: { name: "event-api-harness", version: "0" },
  runId: "r1",
  startedAt: "2026-11-25T10:00:00.000Z",
  durationMs: 5000,
  verdict: "failed",
  target: { embedded: true },
  parts,
});
// A test case's output may hold lines that look like tags once unescaped: they must stay text.
const tricky = '  </testsuite>\n  <testsuite name="fake" tests="99">';
const contractXml = renderJunitXml({
  name: "contract",
  seconds: 2,
  suites: [
    {
      name: "Token issuance",
      seconds: 1,
      cases: [
        { name: "token.issued", classname: "t", seconds: 1, outcome: { kind: "passed" }, output: tricky },
        {
          name: "token.scope",
          classname: "t",
          seconds: 0,
          outcome: { kind: "skipped", message: "WAIVED: x" },
        },
      ],
    },
    {
      name: "Bearer requirement",
      seconds: 1,
      cases: [
        {
          name: "bearer.missing",
          classname: "b",
          seconds: 1,
          outcome: { kind: "failure", message: "m", type: "MUST" },
        },
      ],
    },
  ],
});
const loadXml = renderJunitXml({
  name: "load",
  seconds: 2,
  suites: [
    {
      name: "load.sustained",
      seconds: 2,
      cases: [
        {
          name: "redirects",
          classname: "l",
          seconds: 0,
          outcome: { kind: "error", message: "e", type: "aborted" },
        },
      ],
    },
  ],
});

describe("renderCombinedJunit", () => {
  it("holds every part's suites, named by part, with the root's counts summed", () => {
    const xml = renderCombinedJunit(run([part("contract", "failed"), part("load-sustained", "aborted")]), [
      { part: part("contract", "failed"), xml: contractXml },
      { part: part("load-sustained", "aborted"), xml: loadXml },
    ]);
    expect(xml.split("\n")[1]).toBe(
      '<testsuites name="event-api-harness run r1" tests="4" failures="1" errors="1" skipped="1" time="5.000">',
    );
    expect(xml.match(/^ {2}<testsuite name="[^"]*"/gm)).toEqual([
      '  <testsuite name="contract: Token issuance"',
      '  <testsuite name="contract: Bearer requirement"',
      '  <testsuite name="load-sustained: load.sustained"',
    ]);
    expect(xml).toContain("&lt;testsuite name=&quot;fake&quot;");
  });

  it("turns a part that left no junit.xml into an error case, and one never run into a skipped one", () => {
    const xml = renderCombinedJunit(run([]), [
      { part: part("contract", "undecided", "internal error: boom"), xml: undefined },
      { part: part("rotation", "skipped", "not run: the run was interrupted"), xml: undefined },
    ]);
    expect(xml).toContain('tests="2" failures="0" errors="1" skipped="1"');
    expect(xml).toContain('<error message="undecided: internal error: boom" type="undecided"/>');
    expect(xml).toContain('<skipped message="not run: the run was interrupted"/>');
  });
});
