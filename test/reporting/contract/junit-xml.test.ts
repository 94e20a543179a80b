import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import type { CheckResult, Counterexample } from "../../../contracts/index.ts";
import { renderJunitXml } from "../../../reporting/contract/junit-xml.ts";
import { contractRun as run } from "../../support/contract-run.ts";
import { junitCases } from "../../support/junit-cases.ts";

function check(id: string, status: CheckResult["status"], extra: Partial<CheckResult> = {}): CheckResult {
  return {
    id,
    title: `the ${id} rule`,
    area: id.split(".")[0] as CheckResult["area"],
    level: "MUST",
    rule: "Rule 1",
    status,
    message: `${status} message`,
    durationMs: 250,
    evidence: [],
    ...extra,
  };
}

/** Each test case's <system-out>, by case name, as an XML reader resolves it. */
function outputs(xml: string): Map<string, string> {
  const doc = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    trimValues: false,
    isArray: (name) => ["testsuite", "testcase"].includes(name),
  }).parse(xml) as {
    testsuites: { testsuite: { name: string; testcase: { name: string; "system-out"?: string }[] }[] };
  };
  return new Map(
    doc.testsuites.testsuite.flatMap((s) =>
      s.testcase.map((c) => [c.name, String(c["system-out"] ?? "")] as const),
    ),
  );
}

describe("renderJunitXml", () => {
  it("writes one suite per area in the areas' order, each check a case named by id and title", () => {
    const cases = junitCases(
      renderJunitXml(run([check("events.a", "PASS"), check("token.b", "PASS"), check("token.c", "PASS")])),
    );
    expect(cases.map((c) => [c.suite, c.name, c.classname])).toEqual([
      ["Token issuance", "token.b: the token.b rule", "event-api-harness.token"],
      ["Token issuance", "token.c: the token.c rule", "event-api-harness.token"],
      ["Event creation", "events.a: the events.a rule", "event-api-harness.events"],
    ]);
  });

  it("makes FAIL a failure of its level, ERROR an error, SKIP and WAIVED skipped, WARN and PASS passes", () => {
    const cases = junitCases(
      renderJunitXml(
        run([
          check("token.fail", "FAIL", { level: "SHOULD" }),
          check("token.error", "ERROR"),
          check("token.skip", "SKIP"),
          check("token.waived", "WAIVED"),
          check("token.warn", "WARN"),
          check("token.pass", "PASS"),
        ]),
      ),
    );
    const by = new Map(cases.map((c) => [c.name.split(":")[0], c]));
    expect(by.get("token.fail")?.failure).toMatchObject({
      message: "FAIL message",
      type: "SHOULD",
      text: "[SHOULD] Rule 1: FAIL message",
    });
    expect(by.get("token.error")?.error).toMatchObject({
      message: "ERROR message",
      type: "could-not-decide",
    });
    expect(by.get("token.skip")?.skipped).toMatchObject({ message: "SKIP message" });
    expect(by.get("token.waived")?.skipped).toMatchObject({ message: "WAIVED: WAIVED message" });
    for (const id of ["token.warn", "token.pass"]) {
      const c = by.get(id);
      expect([c?.failure, c?.error, c?.skipped]).toEqual([undefined, undefined, undefined]);
    }
  });

  it("leads each case's output with its status, then each exchange's curl and outcome", () => {
    const xml = renderJunitXml(
      run([
        check("bearer.w", "WARN", {
          evidence: [
            {
              label: "no token",
              request: { method: "POST", url: "https://b/events", headers: {} },
              response: { status: 401, headers: {}, body: "", durationMs: 2 },
              curl: "curl -X POST 'https://b/events'",
            },
            {
              label: "again",
              request: { method: "POST", url: "https://b/events", headers: {} },
              error: "ECONNRESET",
              curl: "curl again",
            },
          ],
        }),
      ]),
    );
    expect(outputs(xml).get("bearer.w: the bearer.w rule")).toBe(
      "WARN [MUST] Rule 1: WARN message\n\n# no token\ncurl -X POST 'https://b/events'\n=> 401\n\n# again\ncurl again\n=> error: ECONNRESET",
    );
  });

  it("puts a property-based failure's minimal input and replay ahead of the evidence", () => {
    const counterexample: Counterexample = {
      what: "amount is -1",
      contentType: null,
      input: '{"amount":-1}',
      seed: 9,
      path: "body/amount:2",
      class: "body/amount",
      byCoverage: true,
      shrinks: 0,
      foundAt: { input: 1, afterMs: 0, shrinkMs: 0 },
      replay: "--seed 9 --only inputs.amount --fuzz-replay body/amount:2",
    };
    const xml = renderJunitXml(
      run([check("inputs.amount", "FAIL", { counterexample })], { rerun: "npx event-harness contract" }),
    );
    expect(outputs(xml).get("inputs.amount: the inputs.amount rule")).toBe(
      [
        "FAIL [MUST] Rule 1: FAIL message",
        "",
        "Minimal input: amount is -1 (Content-Type none; seed 9, path body/amount:2; found at input 1 (replayed), shrunk 0 times in 0 ms)",
        '{"amount":-1}',
        "Replay: npx event-harness contract --seed 9 --only inputs.amount --fuzz-replay body/amount:2",
        "",
        "",
      ].join("\n"),
    );
  });

  it("adds a Run suite with an error for an interrupted run or a target it could not test, so CI is never green", () => {
    const aborted = junitCases(
      renderJunitXml(run([check("token.a", "PASS")], { aborted: "interrupted (received SIGINT)" })),
    );
    expect(aborted.at(-1)).toMatchObject({
      suite: "Run",
      name: "run",
      classname: "event-api-harness.run",
      error: { message: "ABORTED: interrupted (received SIGINT)", type: "aborted" },
    });
    const untested = junitCases(renderJunitXml(run([], { couldNotTest: "no token" })));
    expect(untested).toEqual([
      expect.objectContaining({
        suite: "Run",
        error: expect.objectContaining({ message: "COULD NOT TEST: no token", type: "could-not-test" }),
      }),
    ]);
    expect(junitCases(renderJunitXml(run([check("token.a", "PASS")]))).map((c) => c.suite)).toEqual([
      "Token issuance",
    ]);
  });

  it("stays well-formed XML whatever a target's message holds", () => {
    const hostile = 'got </failure><x a="1"> ]]> & \u0001\u001b[31m \uFFFE';
    const cases = junitCases(renderJunitXml(run([check("token.x", "FAIL", { message: hostile })])));
    expect(cases).toHaveLength(1);
    expect(cases[0]?.failure?.message).toContain('got </failure><x a="1"> ]]> &');
  });
});
