import { describe, expect, it } from "vitest";
import {
  answeredClause,
  brokenByAnswers,
  UNANSWERED_REJECTIONS,
  unansweredRejections,
} from "../../../reporting/load/answered-failures.ts";
import type { SummaryData, ThresholdResult } from "../../../reporting/load/index.ts";

const crossed = (metric: string, expression: string): ThresholdResult => ({
  metric,
  expression,
  ok: false,
  observed: undefined,
});
const errors = crossed("events_failed", "rate<0.01");
const latency = crossed("http_req_duration{endpoint:events}", "p(95)<500");

describe("brokenByAnswers", () => {
  it("names the failure objective the target's own answers cross", () => {
    expect(brokenByAnswers([latency, errors], { accepted: 980, rejected: 20, unanswered: 0 })).toBe(errors);
  });

  it("takes every unanswered rejection off first, as if k6 had caused it", () => {
    // 20 failures, 11 without an answer: 9 of 1,000 answered, under 1 %.
    expect(brokenByAnswers([errors], { accepted: 980, rejected: 20, unanswered: 11 })).toBeUndefined();
    // 10 answered of 1,000 is 1 %, which `rate<0.01` does not allow.
    expect(brokenByAnswers([errors], { accepted: 980, rejected: 20, unanswered: 10 })).toBe(errors);
  });

  it("reads the objective as the user wrote it", () => {
    const lenient = crossed("events_failed", "rate<=0.2");
    expect(brokenByAnswers([lenient], { accepted: 800, rejected: 200, unanswered: 0 })).toBeUndefined();
    expect(brokenByAnswers([lenient], { accepted: 790, rejected: 210, unanswered: 0 })).toBe(lenient);
  });

  it("proves nothing from other objectives, a kept one, or no events", () => {
    expect(brokenByAnswers([latency], { accepted: 0, rejected: 1000, unanswered: 0 })).toBeUndefined();
    expect(brokenByAnswers([], { accepted: 0, rejected: 1000, unanswered: 0 })).toBeUndefined();
    expect(brokenByAnswers([errors], { accepted: 0, rejected: 0, unanswered: 0 })).toBeUndefined();
    const unparsed = crossed("events_failed", "rate is high");
    expect(brokenByAnswers([unparsed], { accepted: 0, rejected: 10, unanswered: 0 })).toBeUndefined();
  });
});

describe("unansweredRejections", () => {
  it("adds the rejections with no answer and leaves every HTTP status out", () => {
    const counter = (count: number) => ({ type: "counter" as const, contains: "default", values: { count } });
    const data: SummaryData = {
      metrics: {
        "events_rejected{status:network}": counter(4),
        "events_rejected{status:no-token}": counter(3),
        "events_rejected{status:503}": counter(50),
        "events_rejected{status:500}": counter(7),
      },
    };
    expect(UNANSWERED_REJECTIONS).toEqual(["network", "no-token"]);
    expect(unansweredRejections(data)).toBe(7);
    expect(unansweredRejections({ metrics: {} })).toBe(0);
  });
});

describe("answeredClause", () => {
  it("counts the answered failures among all events", () => {
    expect(answeredClause(errors, { accepted: 880, rejected: 120, unanswered: 20 })).toBe(
      "the API answered 100 of 1000 events with an error, which crosses events_failed rate<0.01 whatever the load generator did",
    );
  });
});
