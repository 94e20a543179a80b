import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RunDeadline, requestDeadline } from "../../../contracts/deadline/index.ts";
import { UnansweredEndpoints } from "../../../contracts/probe/unanswered-endpoints.ts";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("requestDeadline", () => {
  it("aborts at its timeout and says how long it waited", () => {
    const deadline = requestDeadline(1_500);
    vi.advanceTimersByTime(1_499);
    expect(deadline.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.cutShort()).toEqual({ by: "timeout", message: "no answer within 1.5 s" });
  });

  it("aborts when the outer signal does, naming its reason", () => {
    const outer = new AbortController();
    const deadline = requestDeadline(10_000, outer.signal);
    vi.advanceTimersByTime(2_000);
    outer.abort(new Error("the run's deadline of 3.0 s (--run-timeout) expired"));
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.cutShort()).toEqual({
      by: "outer",
      message: "no answer within 2.0 s: the run's deadline of 3.0 s (--run-timeout) expired",
    });
  });

  it("is not cut short once disposed", () => {
    const deadline = requestDeadline(1_000);
    deadline.dispose();
    vi.advanceTimersByTime(5_000);
    expect(deadline.signal.aborted).toBe(false);
    expect(deadline.cutShort()).toBeUndefined();
  });
});

describe("RunDeadline", () => {
  it("grows when a probe asks for more time, unless the user fixed it", () => {
    const derived = new RunDeadline({ startedAt: Date.now(), budgetMs: 10_000, fixed: false });
    const fixed = new RunDeadline({ startedAt: Date.now(), budgetMs: 10_000, fixed: true });
    derived.extendTo(Date.now() + 20_000);
    fixed.extendTo(Date.now() + 20_000);
    derived.extendTo(Date.now() + 5_000);
    vi.advanceTimersByTime(10_000);
    expect(fixed.signal.aborted).toBe(true);
    expect(String(fixed.signal.reason)).toContain("the run's deadline of 10.0 s (--run-timeout) expired");
    expect(derived.signal.aborted).toBe(false);
    expect(derived.budgetMs).toBe(20_000);
    vi.advanceTimersByTime(10_000);
    expect(derived.signal.aborted).toBe(true);
    expect(String(derived.signal.reason)).toContain("derived from the profile and expires_in");
  });
});

describe("UnansweredEndpoints", () => {
  const token = { method: "POST", url: "http://127.0.0.1:1/auth/oauth/token", headers: {} };
  const events = { method: "POST", url: "http://127.0.0.1:1/api/events", headers: {} };

  it("gives an endpoint up after two unanswered requests in a row, and only that endpoint", () => {
    const endpoints = new UnansweredEndpoints();
    endpoints.record(token, false);
    expect(endpoints.refusal(token, 3_000)).toBeUndefined();
    endpoints.record(token, false);
    expect(endpoints.refusal(token, 3_000)).toBe(
      "not sent: POST /auth/oauth/token gave no answer within 3.0 s to the last 2 requests",
    );
    expect(endpoints.refusal(events, 3_000)).toBeUndefined();
  });

  it("forgets a streak when an answer comes", () => {
    const endpoints = new UnansweredEndpoints();
    endpoints.record(token, false);
    endpoints.record(token, true);
    endpoints.record(token, false);
    expect(endpoints.refusal(token, 3_000)).toBeUndefined();
  });
});
