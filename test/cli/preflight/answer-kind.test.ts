import { answerKind } from "../../../cli/preflight/answer-kind.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

function answer(status: number, text: string, contentType = "application/json") {
  return { kind: "answer", status, contentType, text, location: undefined } as const;
}

describe("answerKind", () => {
  it("reads a token with a lifetime", () => {
    expect(answerKind(answer(200, '{"access_token":"abc","expires_in":60}'))).toEqual({
      kind: "token",
      token: { accessToken: "abc", expiresInSeconds: 60 },
    });
  });

  it.for([["0"], ['"300"'], ["1.5"], ["-1"], ["null"]])(
    "says an access token with expires_in %s has no usable lifetime, keeping the body",
    ([lifetime]) => {
      const text = `{"access_token":"abc","expires_in":${lifetime}}`;
      expect(answerKind(answer(200, text))).toEqual({ kind: "bad-lifetime", body: JSON.parse(text) });
    },
  );

  it("says a 200 without an access token is for the checks to judge", () => {
    expect(answerKind(answer(200, '{"expires_in":60}')).kind).toBe("other");
    expect(answerKind(answer(200, '{"access_token":"","expires_in":"x"}')).kind).toBe("other");
  });

  it("reads a 401, or an invalid_client with any status, as refused credentials", () => {
    expect(answerKind(answer(401, "")).kind).toBe("refused");
    expect(answerKind(answer(400, '{"error":"invalid_client"}')).kind).toBe("refused");
    expect(answerKind(answer(400, '{"error":"invalid_request"}')).kind).toBe("other");
  });

  it("reads a 404, a 405, an HTML page or a success that is no JSON as no token endpoint", () => {
    expect(answerKind(answer(404, '{"error":"not_found"}')).kind).toBe("not-token-endpoint");
    expect(answerKind(answer(405, "")).kind).toBe("not-token-endpoint");
    expect(answerKind(answer(400, "<p>bad</p>", "text/plain")).kind).toBe("not-token-endpoint");
    expect(answerKind(answer(500, "oops", "TEXT/HTML; charset=utf-8")).kind).toBe("not-token-endpoint");
    expect(answerKind(answer(204, "")).kind).toBe("not-token-endpoint");
    expect(
      answerKind(answer(200, "access_token=abc&expires_in=60", "application/x-www-form-urlencoded")).kind,
    ).toBe("not-token-endpoint");
  });

  it("leaves a 5xx or another 400 in JSON to the checks", () => {
    expect(answerKind(answer(503, '{"error":"temporarily_unavailable"}')).kind).toBe("other");
    expect(answerKind(answer(400, "null")).kind).toBe("other");
  });
});
