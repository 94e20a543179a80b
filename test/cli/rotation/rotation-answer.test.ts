import { readRotationAnswer } from "../../../cli/rotation/rotation-answer.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

const good = {
  client_id: "ci",
  client_secret: "Abc!~xyz",
  "not-before-policy": 0,
  old_secret_valid_until: null,
};

function problemsOf(body: unknown, clientId = "ci"): string {
  const read = readRotationAnswer(body, clientId);
  expect(read.ok).toBe(false);
  return read.ok ? "" : read.problems;
}

describe("readRotationAnswer", () => {
  it("takes a well-formed answer for the client asked for", () => {
    expect(readRotationAnswer(good, "ci")).toEqual({ ok: true, answer: good });
    const later = { ...good, old_secret_valid_until: 8_640_000_000_000, "not-before-policy": 1_700_000_000 };
    expect(readRotationAnswer(later, "ci")).toEqual({ ok: true, answer: later });
  });

  it("refuses an answer for another client", () => {
    expect(problemsOf({ ...good, client_id: "other" })).toBe(
      "client_id is not the client that was asked for",
    );
  });

  it.for([
    [
      " leading",
      "client_secret is not printable ASCII without a space at either end (RFC 6749 Appendix A.2)",
    ],
    [
      "trailing ",
      "client_secret is not printable ASCII without a space at either end (RFC 6749 Appendix A.2)",
    ],
    [
      "line\nbreak",
      "client_secret is not printable ASCII without a space at either end (RFC 6749 Appendix A.2)",
    ],
    ["", "client_secret is not printable ASCII without a space at either end (RFC 6749 Appendix A.2)"],
    ["::add-mask::x", "client_secret starts with '::', a workflow command in a CI log"],
    ["x".repeat(4097), "client_secret is longer than a client secret"],
  ])("refuses the secret %j, saying why without quoting it", ([secret, problem]) => {
    const problems = problemsOf({ ...good, client_secret: secret });
    expect(problems).toBe(problem);
  });

  it("takes a secret with inner spaces, at the length bound", () => {
    expect(readRotationAnswer({ ...good, client_secret: "a b" }, "ci").ok).toBe(true);
    expect(readRotationAnswer({ ...good, client_secret: "x".repeat(4096) }, "ci").ok).toBe(true);
  });

  it("words each field's problem in the harness's words, each once", () => {
    expect(
      problemsOf({ client_id: 7, client_secret: "s", "not-before-policy": 1.5, old_secret_valid_until: -1 }),
    ).toBe(
      "client_id must be a string; not-before-policy must be a whole number of seconds; old_secret_valid_until is not a time a date can hold",
    );
    expect(problemsOf({ ...good, "not-before-policy": 8_640_000_000_001 })).toBe(
      "not-before-policy is not a time a date can hold",
    );
    expect(problemsOf("not json")).toBe("the answer must be a JSON object");
    expect(problemsOf({ ...good, old_secret_valid_until: undefined })).toBe(
      "old_secret_valid_until must be a whole number of seconds",
    );
  });
});
