import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { UnansweredEndpoints } from "../../../contracts/probe/unanswered-endpoints.ts";
import {
  MAX_STRETCHED_RUN_MS,
  MAX_TIMER_DELAY_MS,
  RunDeadline,
  requestDeadline,
  timerDelay,
} from "../../../transport/deadline/index.ts";

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
    expect(derived.reserve(Date.now() + 20_000)).toBeUndefined();
    expect(fixed.reserve(Date.now() + 20_000)).toBe(
      "the run would need 20.0 s, past its deadline of 10.0 s (--run-timeout)",
    );
    expect(derived.reserve(Date.now() + 5_000)).toBeUndefined();
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

describe("RunDeadline past what a Node timer holds", () => {
  const DAY_MS = 24 * 60 * 60 * 1000;

  it("fires when due, not at once, however far away (2^31 − 1 ms is 24.8 days)", () => {
    const deadline = new RunDeadline({ startedAt: Date.now(), budgetMs: 30 * DAY_MS, fixed: true });
    vi.advanceTimersByTime(1_000);
    expect(deadline.signal.aborted).toBe(false);
    vi.advanceTimersByTime(30 * DAY_MS - 1_001);
    expect(deadline.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(deadline.signal.aborted).toBe(true);
    deadline.dispose();
  });

  it("is stretched no further than MAX_STRETCHED_RUN_MS unless the user fixed it, and says why", () => {
    const derived = new RunDeadline({ startedAt: Date.now(), budgetMs: 10_000, fixed: false });
    expect(derived.reserve(Date.now() + MAX_STRETCHED_RUN_MS)).toBeUndefined();
    expect(derived.reserve(Date.now() + 25 * DAY_MS)).toMatch(
      /^the run would need 600 h 0 min, past its deadline of 3 h 0 min \(.*--run-timeout sets a longer one\)$/,
    );
    expect(derived.budgetMs).toBe(MAX_STRETCHED_RUN_MS);
    // Asked for more than it may give but needing less, it stretches as far as it may.
    const capped = new RunDeadline({ startedAt: Date.now(), budgetMs: 10_000, fixed: false });
    expect(capped.reserve(Date.now() + 2 * MAX_STRETCHED_RUN_MS, Date.now() + 60_000)).toBeUndefined();
    expect(capped.budgetMs).toBe(MAX_STRETCHED_RUN_MS);
    capped.dispose();
    vi.advanceTimersByTime(MAX_STRETCHED_RUN_MS - 1);
    expect(derived.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(derived.signal.aborted).toBe(true);
  });
});

describe("timerDelay", () => {
  it("keeps a delay within what Node's timers hold", () => {
    expect(timerDelay(1_500)).toBe(1_500);
    expect(timerDelay(-5)).toBe(0);
    expect(timerDelay(Number.NaN)).toBe(0);
    expect(timerDelay(2 ** 31)).toBe(MAX_TIMER_DELAY_MS);
    expect(MAX_TIMER_DELAY_MS).toBe(2 ** 31 - 1);
  });
});
