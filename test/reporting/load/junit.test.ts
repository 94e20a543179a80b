import { describe, expect, it } from "vitest";
import type { LedgerEntry } from "../../../reporting/accepted/index.ts";
import type { LoadResult, ThresholdResult } from "../../../reporting/load/index.ts";
import { renderJunit } from "../../../reporting/load/junit.ts";
import { junitCases } from "../../support/junit-cases.ts";
import {
  crossedThreshold as crossed,
  heldThreshold as held,
  heldVerdict,
  limitedGenerator,
  passedResult,
  redirectsThreshold as redirected,
  reportInput,
} from "../../support/load-report-input.ts";

const expiredEntry: LedgerEntry = {
  id: "load.http_req_duration{endpoint:events}",
  reason: "slow",
  expires: "2026-11-01",
};
const waivingEntry: LedgerEntry = {
  id: "load.redirects",
  reason: "proxy",
  ticket: "OPS-2",
  expires: "2027-01-31",
};

describe("renderJunit", () => {
  it("writes one case per threshold, then the sliding-expiry verdict and the load generator, all passing", () => {
    const cases = junitCases(renderJunit(reportInput({ thresholds: [held] })));
    expect(cases).toEqual([
      { suite: "load.sustained", name: "events_failed: rate<0.05", classname: "load.sustained.thresholds" },
      { suite: "load.sustained", name: "sliding expiry", classname: "load.sustained" },
      { suite: "load.sustained", name: "load generator", classname: "load.sustained" },
    ]);
  });

  it("fails a crossed threshold with what was observed, naming an expired entry that no longer waives it", () => {
    const result: LoadResult = {
      ...passedResult,
      outcome: "failed",
      failedThresholds: [crossed],
      accepted: [
        {
          entry: expiredEntry,
          state: "expired",
          detail: "accepted until 2026-11-01, expired: it fails again",
        },
      ],
    };
    const [threshold] = junitCases(renderJunit(reportInput({ thresholds: [crossed], result })));
    expect(threshold?.failure).toEqual({
      message:
        "threshold crossed: p(95)=9.5ms; load.http_req_duration{endpoint:events} accepted until 2026-11-01, expired: it fails again",
      type: "threshold",
      text: "",
    });
  });

  it("skips a threshold the ledger waives, with the entry's reason: neither passed nor failed", () => {
    const result: LoadResult = {
      ...passedResult,
      waivedThresholds: [redirected],
      accepted: [{ entry: waivingEntry, state: "waived", detail: "fails, waived: proxy", level: "MUST" }],
    };
    const [threshold] = junitCases(renderJunit(reportInput({ thresholds: [redirected], result })));
    expect(threshold?.failure).toBeUndefined();
    expect(threshold?.skipped?.message).toMatch(
      /^WAIVED, threshold crossed; WAIVED +load\.redirects: accepted until 2027-01-31 \(OPS-2\): proxy$/,
    );
  });

  it("fails the verdict case when sliding expiry broke, and skips it when it could not be decided", () => {
    const broken = {
      ...heldVerdict,
      level: "broken",
      reasons: ["2 tokens were rejected.", "Rule 6."],
    } as const;
    const brokenCase = junitCases(renderJunit(reportInput({ verdict: broken }))).find(
      (c) => c.name === "sliding expiry",
    );
    expect(brokenCase?.failure).toEqual({
      message: "sliding expiry broken",
      type: "contract",
      text: "2 tokens were rejected. Rule 6.",
    });
    const unsure = {
      ...heldVerdict,
      level: "not-exercised",
      reasons: ["no token lived long enough."],
    } as const;
    const unsureCase = junitCases(renderJunit(reportInput({ verdict: unsure }))).find(
      (c) => c.name === "sliding expiry",
    );
    expect(unsureCase?.skipped).toMatchObject({ message: "no token lived long enough." });
    expect(unsureCase?.failure).toBeUndefined();
  });

  it("reads a limited generator as an error of the run, never as the target's failure", () => {
    const generatorCase = junitCases(renderJunit(reportInput({ generator: limitedGenerator }))).find(
      (c) => c.name === "load generator",
    );
    expect(generatorCase?.error).toEqual({
      message: "the generator, not the API, limited this run",
      type: "generator",
      text: limitedGenerator.signals.map((s) => s.detail).join(" "),
    });
    // A run that failed anyway, on what no generator explains, is not said to be k6's.
    const failed: LoadResult = { ...passedResult, outcome: "failed", reason: "k6 was at its own limit too" };
    const failedCase = junitCases(
      renderJunit(reportInput({ generator: limitedGenerator, result: failed })),
    ).find((c) => c.name === "load generator");
    expect(failedCase?.error?.message).toBe("k6 was at its own limit too");
  });

  it("adds an error case for a run that did not finish, whose thresholds alone would read green", () => {
    const result: LoadResult = {
      ...passedResult,
      outcome: "aborted",
      reason: "interrupted (received SIGTERM)",
    };
    const cases = junitCases(renderJunit(reportInput({ thresholds: [held], result })));
    expect(cases.at(-1)).toEqual({
      suite: "load.sustained",
      name: "run",
      classname: "load.sustained",
      error: { message: "ABORTED: interrupted (received SIGTERM)", type: "aborted", text: "" },
    });
  });

  it("escapes what a user named, and appends the suites it is given", () => {
    const hostile: ThresholdResult = {
      metric: 'm{tag:<a&"b">}',
      expression: "count<1",
      ok: true,
      observed: undefined,
    };
    const extra = {
      name: "baseline",
      seconds: 0,
      cases: [
        { name: "events.p95", classname: "baseline", seconds: 0, outcome: { kind: "passed" } as const },
      ],
    };
    const cases = junitCases(renderJunit(reportInput({ thresholds: [hostile] }), [extra]));
    expect(cases[0]?.name).toBe('m{tag:<a&"b">}: count<1');
    expect(cases.at(-1)).toEqual({ suite: "baseline", name: "events.p95", classname: "baseline" });
  });
});
