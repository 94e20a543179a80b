import { describe, expect, it } from "vitest";
import { DESCRIPTION_CHARS, describeOAuthError, oauthErrorOf, Redactor } from "../../transport/index.ts";

const GENERIC =
  "The request is missing a required parameter, includes an invalid parameter value, includes a parameter more than once, or is otherwise malformed.";

describe("an OAuth error's words", () => {
  it("reads the error code and error_description of an RFC 6749 error body, and nothing else as one", () => {
    expect(oauthErrorOf('{"error":"invalid_scope","error_description":"no"}')).toEqual({
      error: "invalid_scope",
      description: "no",
    });
    expect(oauthErrorOf('{"error":"invalid_client"}')).toEqual({
      error: "invalid_client",
      description: undefined,
    });
    for (const body of [
      "",
      "<html>",
      '{"Message":"x"}',
      '["error"]',
      '{"error":42}',
      `{"error":"x","pad":"${"a".repeat(20_000)}"}`,
    ])
      expect(oauthErrorOf(body), body.slice(0, 20)).toBeUndefined();
  });

  it("quotes a description whole when it fits", () => {
    const reason = `${GENERIC} Requested audience 'https://api.example.com' has not been whitelisted by the OAuth 2.0 Client.`;
    expect(describeOAuthError({ error: "invalid_request", description: reason }, new Redactor())).toBe(
      `invalid_request: "${reason}"`,
    );
  });

  it("quotes the END of one too long to quote whole: the specific reason comes last", () => {
    const reason =
      "Requested audience 'https://api.example.com' has not been whitelisted by the OAuth 2.0 Client.";
    const description = `${GENERIC} ${GENERIC} ${GENERIC} ${reason}`;
    const said = describeOAuthError({ error: "invalid_request", description }, new Redactor());
    expect(said).toMatch(/^invalid_request: "….*"$/);
    expect(said.endsWith(`${reason}"`)).toBe(true);
    expect([...said.slice('invalid_request: "'.length, -1)].length).toBe(DESCRIPTION_CHARS);
  });

  it("hides a secret the description echoes and shows its control characters, before the cut", () => {
    const secret = "s3cr3t-value-echoed";
    const said = describeOAuthError(
      { error: "invalid_client", description: `${"x".repeat(400)} bad secret ${secret}\u001b[31m` },
      new Redactor().add(secret, "<CLIENT_SECRET>"),
    );
    expect(said).not.toContain(secret);
    expect(said).toContain("bad secret <CLIENT_SECRET>\\x1b[31m");
  });
});
