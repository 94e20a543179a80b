import { PROGRESS_MARK } from "../../../contracts/index.ts";
import { parseProgress } from "../../../contracts/runner/progress-channel.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

describe("parseProgress", () => {
  it("splits a marked line into the check id and its message", () => {
    expect(parseProgress(`${PROGRESS_MARK}lifetime.sliding\t2 uses so far: 5 s to go\n`)).toEqual({
      checkId: "lifetime.sliding",
      message: "2 uses so far: 5 s to go",
    });
  });

  it("keeps tabs inside the message, and an empty message when there is none", () => {
    expect(parseProgress(`${PROGRESS_MARK}a.b\tone\ttwo`)).toEqual({ checkId: "a.b", message: "one\ttwo" });
    expect(parseProgress(`${PROGRESS_MARK}a.b`)).toEqual({ checkId: "a.b", message: "" });
  });

  it("leaves any other line alone, the mark somewhere else in it included", () => {
    expect(parseProgress("lifetime.sliding\tnot marked")).toBeUndefined();
    expect(parseProgress(` ${PROGRESS_MARK}x\ty`)).toBeUndefined();
    expect(parseProgress("")).toBeUndefined();
  });

  it("uses a mark no printable line can start with", () => {
    expect(PROGRESS_MARK.startsWith("\u0000")).toBe(true);
  });
});
