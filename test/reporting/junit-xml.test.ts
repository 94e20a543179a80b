import { describe, expect, it } from "vitest";
import type { JunitReport } from "../../reporting/index.ts";
import { renderJunitXml, xmlText } from "../../reporting/index.ts";
import { xmlProblems } from "../support/xml-document.ts";

const report: JunitReport = {
  name: "harness",
  seconds: 1.5,
  suites: [
    {
      name: "Area <one>",
      seconds: 1.25,
      timestamp: "2026-11-23T05:00:00.000Z",
      cases: [
        { name: "a.pass", classname: "h.a", seconds: 0.1, outcome: { kind: "passed" } },
        { name: "a.warn", classname: "h.a", seconds: 0.1, outcome: { kind: "passed" }, output: "WARN slow" },
        {
          name: "a.fail",
          classname: "h.a",
          seconds: 0.5,
          outcome: { kind: "failure", message: 'said "no"', type: "MUST", detail: "500 & more" },
        },
        {
          name: "a.error",
          classname: "h.a",
          seconds: 0.5,
          outcome: { kind: "error", message: "timeout", type: "x" },
        },
        {
          name: "a.skip",
          classname: "h.a",
          seconds: 0.05,
          outcome: { kind: "skipped", message: "needs a.fail" },
        },
      ],
    },
    { name: "empty", seconds: 0, cases: [] },
  ],
};

describe("renderJunitXml", () => {
  it("derives every count from the cases and writes each outcome in its JUnit form", () => {
    expect(renderJunitXml(report)).toMatchInlineSnapshot(`
      "<?xml version="1.0" encoding="UTF-8"?>
      <testsuites name="harness" tests="5" failures="1" errors="1" skipped="1" time="1.500">
        <testsuite name="Area &lt;one&gt;" tests="5" failures="1" errors="1" skipped="1" time="1.250" timestamp="2026-11-23T05:00:00.000Z">
          <testcase name="a.pass" classname="h.a" time="0.100"/>
          <testcase name="a.warn" classname="h.a" time="0.100"><system-out>WARN slow</system-out></testcase>
          <testcase name="a.fail" classname="h.a" time="0.500"><failure message="said &quot;no&quot;" type="MUST">500 &amp; more</failure></testcase>
          <testcase name="a.error" classname="h.a" time="0.500"><error message="timeout" type="x"/></testcase>
          <testcase name="a.skip" classname="h.a" time="0.050"><skipped message="needs a.fail"/></testcase>
        </testsuite>
        <testsuite name="empty" tests="0" failures="0" errors="0" skipped="0" time="0.000">
        </testsuite>
      </testsuites>
      "
    `);
  });

  it("drops the control characters XML 1.0 cannot carry, even escaped", () => {
    expect(xmlText("a\u0000b\u0008c\u001Fd\te\nf")).toBe("abcd\te\nf");
  });

  it("drops every other character outside XML 1.0's Char production, and keeps astral ones", () => {
    expect(xmlText("a\ufffeb\uffffc\ud800d\udfffe\u{1F600}f\u0085g")).toBe("abcde\u{1F600}f\u0085g");
  });

  it("writes a well-formed document whatever a case's texts hold", () => {
    const hostile = '\u001b[2J\u0000\ufffe\ud800 </system-out> & "q" ]]>';
    const xml = renderJunitXml({
      name: hostile,
      seconds: 1,
      suites: [
        {
          name: hostile,
          seconds: 1,
          cases: [
            {
              name: hostile,
              classname: hostile,
              seconds: 1,
              outcome: { kind: "failure", message: hostile, type: hostile, detail: hostile },
              output: hostile,
            },
          ],
        },
      ],
    });
    expect(xmlProblems(xml)).toEqual([]);
  });
});
