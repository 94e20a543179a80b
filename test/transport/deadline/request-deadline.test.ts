import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { noAnswerWithin, requestDeadline } from "../../../transport/deadline/index.ts";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("noAnswerWithin", () => {
  it("says how long the exchange waited", () => {
    expect(noAnswerWithin(3_000)).toBe("no answer within 3.0 s");
    expect(noAnswerWithin(250)).toBe("no answer within 250 ms");
  });
});

describe("requestDeadline", () => {
  it("is cut short at once by an outer signal that already fired", () => {
    const outer = new AbortController();
    outer.abort(new Error("interrupted (Ctrl+C)"));
    const deadline = requestDeadline(10_000, outer.signal);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.signal.reason).toBe(outer.signal.reason);
    expect(deadline.cutShort()).toEqual({
      by: "outer",
      message: "no answer within 0 ms: interrupted (Ctrl+C)",
    });
    deadline.dispose();
  });

  it("names an outer reason that is no Error, or none", () => {
    const withText = new AbortController();
    const first = requestDeadline(10_000, withText.signal);
    vi.advanceTimersByTime(1_000);
    withText.abort("stopped by the run");
    expect(first.cutShort()?.message).toBe("no answer within 1.0 s: stopped by the run");
    first.dispose();
    const withNull = new AbortController();
    const second = requestDeadline(10_000, withNull.signal);
    withNull.abort(null);
    expect(second.cutShort()?.message).toBe("no answer within 0 ms: aborted");
    second.dispose();
  });

  it("keeps the first cause: an outer signal after its own timeout changes nothing", () => {
    const outer = new AbortController();
    const deadline = requestDeadline(500, outer.signal);
    vi.advanceTimersByTime(500);
    outer.abort(new Error("the run's deadline expired"));
    expect(deadline.cutShort()).toEqual({ by: "timeout", message: "no answer within 500 ms" });
    expect((deadline.signal.reason as Error).message).toBe("no answer within 500 ms");
    deadline.dispose();
  });

  it("stops listening to the outer signal once disposed", () => {
    const outer = new AbortController();
    const deadline = requestDeadline(10_000, outer.signal);
    deadline.dispose();
    outer.abort(new Error("later"));
    expect(deadline.signal.aborted).toBe(false);
    expect(deadline.cutShort()).toBeUndefined();
  });

  it("holds a timeout past what one Node timer holds without firing at once", () => {
    const deadline = requestDeadline(2 ** 31 + 10);
    vi.advanceTimersByTime(1_000);
    expect(deadline.signal.aborted).toBe(false);
    deadline.dispose();
  });
});
