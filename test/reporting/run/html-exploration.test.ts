import { describe, expect, it } from "vitest";
import type { CheckResult, ClassExploration } from "../../../contracts/index.ts";
import { renderExploration } from "../../../reporting/run/html-exploration.ts";

const cls = (overrides: Partial<ClassExploration>): ClassExploration => ({
  key: "customer.email/idna-u-label",
  field: "customer.email",
  name: "idna-u-label",
  description: "a domain with a U-label <RFC 6531>",
  expect: "accepted",
  tried: 7,
  covered: 3,
  notJudged: 0,
  answers: { "202": 6, "500": 1 },
  outcome: "broken",
  ...overrides,
});

const check = (classes: unknown): CheckResult => ({
  id: "inputs.email",
  title: "customer.email",
  area: "inputs",
  level: "MUST",
  rule: "Resources: Event",
  status: "FAIL",
  message: "1 of 2 classes broken",
  durationMs: 10,
  evidence: [],
  exploration: { seed: 7, coverage: "all", searchRuns: 200, classes } as NonNullable<
    CheckResult["exploration"]
  >,
});

describe("renderExploration", () => {
  it("lists each class with its field, expectation, inputs, answers and outcome, escaped", () => {
    const html = renderExploration(
      check([
        cls({}),
        cls({
          key: "customer.email/not-an-address",
          name: "not-an-address",
          expect: "refused",
          answers: { "400": 13 },
          outcome: "held",
        }),
      ]),
    );
    expect(html).toContain("Inputs explored: 14 over 2 of 2 classes");
    expect(html).toContain("Every class was reached.");
    expect(html).toContain("a domain with a U-label &lt;RFC 6531&gt;");
    expect(html).toContain("<td>202 ×6, 500 ×1</td><td>BROKEN</td>");
    expect(html).toContain("<td>refused</td><td>7 (3 boundaries)</td><td>400 ×13</td><td>held</td>");
  });

  it("names the classes the run did not reach, with why", () => {
    const html = renderExploration(
      check([
        cls({ outcome: "held" }),
        cls({
          key: "client_secret_basic/client_secret/case-varied",
          field: "client_secret",
          name: "case-varied",
          via: "client_secret_basic",
          tried: 0,
          covered: 0,
          answers: {},
          outcome: "not-reached",
          note: "the target gives no token with client_secret_basic",
        }),
      ]),
    );
    expect(html).toContain(
      "<strong>Not reached:</strong> <code>client_secret_basic/client_secret/case-varied</code>",
    );
    expect(html).toContain(
      'not reached<br><span class="muted">the target gives no token with client_secret_basic</span>',
    );
    expect(html).toContain("over 1 of 2 classes");
  });

  it("shows nothing for a check without an exploration, or one from a file with another shape", () => {
    const { exploration: _, ...plain } = check([]);
    expect(renderExploration(plain)).toBe("");
    expect(renderExploration(check("not a list"))).toBe("");
    expect(renderExploration(check([{ key: 1 }]))).toBe("");
  });
});
