import { EXCERPT_CHARS, excerpt } from "../../../cli/preflight/answer-excerpt.ts";
import { Redactor } from "../../../transport/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

function answer(status: number, text: string, contentType = "") {
  return { kind: "answer", status, contentType, text, location: undefined } as const;
}

describe("excerpt", () => {
  it("gives an OAuth error as its code and description, with the media type without parameters", () => {
    const text = JSON.stringify({ error: "invalid_scope", error_description: "scope  x\nunknown" });
    expect(excerpt(answer(400, text, "application/json; charset=utf-8"), new Redactor())).toBe(
      '400 application/json invalid_scope: "scope x unknown"',
    );
  });

  it("quotes another body's start on one line, cut with an ellipsis past the limit", () => {
    const long = `${"a".repeat(EXCERPT_CHARS)}bcd`;
    expect(excerpt(answer(502, `  Bad\n\tgateway  `, "text/plain"), new Redactor())).toBe(
      '502 text/plain "Bad gateway"',
    );
    expect(excerpt(answer(500, long), new Redactor())).toBe(`500 "${"a".repeat(EXCERPT_CHARS)}…"`);
    expect(excerpt(answer(500, "a".repeat(EXCERPT_CHARS)), new Redactor())).toBe(
      `500 "${"a".repeat(EXCERPT_CHARS)}"`,
    );
  });

  it("says only the status for an empty body", () => {
    expect(excerpt(answer(404, " \n "), new Redactor())).toBe("404");
  });

  it("makes the target's words inert and hides a secret it echoes", () => {
    const redactor = new Redactor().add("echoed-secret", "<CLIENT_SECRET>");
    const text = "\u001b[2Jyou sent echoed-secret";
    expect(excerpt(answer(400, text, "text/\u001bplain"), redactor)).toBe(
      '400 text/\\x1bplain "\\x1b[2Jyou sent <CLIENT_SECRET>"',
    );
  });
});
