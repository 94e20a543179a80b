import { describe, expect, it } from "vitest";
import { errorReason } from "../../cli/error-reason.ts";
import { CannotRunError, ResponseTooLargeError } from "../../core/index.ts";

describe("errorReason", () => {
  it("gives a system error's code, which is shorter than its message", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" });
    expect(errorReason(refused)).toBe("ECONNREFUSED");
  });

  it("gives a harness error's message: its code names the class, not what happened", () => {
    expect(errorReason(new ResponseTooLargeError(1024))).toBe("response body exceeded 1 KiB");
    expect(errorReason(new CannotRunError("the token endpoint answered 500"))).toBe(
      "the token endpoint answered 500",
    );
  });
});
