import { isConnectFailure, unreachableReason } from "../../../cli/preflight/unreachable-reason.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

function socketError(code: string, message = `${code} boom`): Error {
  return Object.assign(new Error(message), { code });
}

function fetchFailure(cause: Error): Error {
  return Object.assign(new TypeError("fetch failed"), { cause });
}

describe("unreachableReason", () => {
  it.for([
    ["ECONNREFUSED", "connection refused"],
    ["ENOTFOUND", "host not found"],
    ["EAI_AGAIN", "host not found"],
    ["ECONNRESET", "connection reset by the target"],
    ["UND_ERR_SOCKET", "connection reset by the target"],
    ["EHOSTUNREACH", "host unreachable"],
  ] as const)("says %s in words, on the error or its cause", ([code, words]) => {
    expect(unreachableReason(socketError(code))).toBe(words);
    expect(unreachableReason(fetchFailure(socketError(code)))).toBe(words);
  });

  it("falls back to the error's own reason for a code it has no words for", () => {
    const reason = unreachableReason(socketError("EWEIRD", "something odd"));
    expect(reason).toContain("EWEIRD");
  });
});

describe("isConnectFailure", () => {
  it("is true for a first hop refused or not found, and false for a reset or a timeout", () => {
    expect(isConnectFailure(socketError("ECONNREFUSED"))).toBe(true);
    expect(isConnectFailure(fetchFailure(socketError("ENOTFOUND")))).toBe(true);
    expect(isConnectFailure(socketError("ENETUNREACH"))).toBe(true);
    expect(isConnectFailure(socketError("ECONNRESET"))).toBe(false);
    expect(isConnectFailure(new Error("no answer within 5 s"))).toBe(false);
    expect(isConnectFailure(null)).toBe(false);
  });
});
