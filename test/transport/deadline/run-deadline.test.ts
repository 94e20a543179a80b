import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RunDeadline } from "../../../transport/deadline/index.ts";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const reasonOf = (signal: AbortSignal): string => (signal.reason as Error).message;

describe("RunDeadline", () => {
  it("aborts when its budget has passed, saying the budget and that the user fixed it", () => {
    const deadline = new RunDeadline({ startedAt: Date.now(), budgetMs: 90_000, fixed: true });
    expect(deadline.budgetMs).toBe(90_000);
    vi.advanceTimersByTime(89_999);
    expect(deadline.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(reasonOf(deadline.signal)).toBe("the run's deadline of 1 min 30 s (--run-timeout) expired");
  });

  it("counts from the run's start, not from when it was made", () => {
    const deadline = new RunDeadline({ startedAt: Date.now() - 4_000, budgetMs: 5_000, fixed: true });
    vi.advanceTimersByTime(999);
    expect(deadline.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(deadline.signal.aborted).toBe(true);
  });

  it("ends at once on an interrupt, with the interrupt's reason, and not again at the deadline", () => {
    const deadline = new RunDeadline({ startedAt: Date.now(), budgetMs: 10_000, fixed: false });
    deadline.interrupt("interrupted (SIGTERM)");
    expect(reasonOf(deadline.signal)).toBe("interrupted (SIGTERM)");
    deadline.interrupt("a second interrupt");
    vi.advanceTimersByTime(20_000);
    expect(reasonOf(deadline.signal)).toBe("interrupted (SIGTERM)");
  });

  it("never shortens, and takes a fixed deadline's own length as room enough", () => {
    const start = Date.now();
    const fixed = new RunDeadline({ startedAt: start, budgetMs: 10_000, fixed: true });
    expect(fixed.reserve(start + 10_000)).toBeUndefined();
    expect(fixed.reserve(start + 1_000)).toBeUndefined();
    expect(fixed.budgetMs).toBe(10_000);
    // What it may not give, it says it cannot, naming what the run needed.
    expect(fixed.reserve(start + 60_000, start + 15_000)).toBe(
      "the run would need 15.0 s, past its deadline of 10.0 s (--run-timeout)",
    );
    fixed.dispose();
  });

  it("does not stretch a deadline that has already fired", () => {
    const start = Date.now();
    const deadline = new RunDeadline({ startedAt: start, budgetMs: 1_000, fixed: false });
    vi.advanceTimersByTime(1_000);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.reserve(start + 60_000)).toBeUndefined();
    expect(deadline.budgetMs).toBe(1_000);
  });

  it("fires no more once disposed", () => {
    const deadline = new RunDeadline({ startedAt: Date.now(), budgetMs: 1_000, fixed: true });
    deadline.dispose();
    vi.advanceTimersByTime(10_000);
    expect(deadline.signal.aborted).toBe(false);
  });
});
