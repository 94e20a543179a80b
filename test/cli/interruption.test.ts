import { describe, expect, it } from "vitest";
import { interruption } from "../../cli/interruption.ts";

function abortedWith(reason?: unknown): AbortSignal {
  const controller = new AbortController();
  controller.abort(reason);
  return controller.signal;
}

describe("interruption", () => {
  it("names the signal an Error or a string reason gives", () => {
    expect(interruption(abortedWith(new Error("received SIGTERM")))).toBe("interrupted (received SIGTERM)");
    expect(interruption(abortedWith("received SIGINT"))).toBe("interrupted (received SIGINT)");
  });

  it("says only 'interrupted' for the default reason, an empty one or one that is no text", () => {
    expect(interruption(abortedWith())).toBe("interrupted");
    expect(interruption(AbortSignal.abort())).toBe("interrupted");
    expect(interruption(abortedWith(new Error("")))).toBe("interrupted");
    expect(interruption(abortedWith(42))).toBe("interrupted");
    expect(interruption(abortedWith({ message: "not an Error" }))).toBe("interrupted");
  });
});
