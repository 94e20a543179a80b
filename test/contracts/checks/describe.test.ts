import { accessTokenOf, describeResponse, jsonObject } from "../../../contracts/checks/describe.ts";
import { Redactor } from "../../../contracts/index.ts";
import type { HttpResponse } from "../../../contracts/probe/http-request.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

function answer(status: number, text: string, contentType?: string): HttpResponse {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    status,
    headers: contentType === undefined ? {} : { "content-type": contentType },
    text,
    json,
    durationMs: 1,
  };
}

describe("describeResponse", () => {
  it("says the status, the media type without its parameters, and the body", () => {
    expect(
      describeResponse(
        answer(401, '{"error":"invalid_client"}', "application/json; charset=utf-8"),
        new Redactor(),
      ),
    ).toBe('401 application/json {"error":"invalid_client"}');
  });

  it("says when there is no content type or no body, and folds whitespace", () => {
    expect(describeResponse(answer(204, ""), new Redactor())).toBe("204 no content type (empty body)");
    expect(describeResponse(answer(400, "  bad\r\n\t request  ", "text/plain"), new Redactor())).toBe(
      "400 text/plain bad request",
    );
  });

  it("cuts a long body at 160 characters", () => {
    const said = describeResponse(answer(500, "x".repeat(400), "text/html"), new Redactor());
    expect(said).toBe(`500 text/html ${"x".repeat(160)}…`);
  });

  it("says a long OAuth error as its code and the end of its description", () => {
    const description = `The request is missing a required parameter. ${"Padding words. ".repeat(30)}Requested audience 'api' has not been whitelisted.`;
    const said = describeResponse(
      answer(
        400,
        JSON.stringify({ error: "invalid_request", error_description: description }),
        "application/json",
      ),
      new Redactor(),
    );
    expect(said).toMatch(
      /^400 application\/json invalid_request: "….*Requested audience 'api' has not been whitelisted\."$/,
    );
    expect(said).not.toContain("missing a required parameter");
  });

  it("hides secrets and makes a target's control characters inert, in the type and the body", () => {
    const redactor = new Redactor().add("hunter2-secret-value", "<CLIENT_SECRET>");
    const said = describeResponse(
      answer(400, "echo hunter2-secret-value \u001b[2J", "text/\u0007plain"),
      redactor,
    );
    expect(said).toContain("<CLIENT_SECRET>");
    expect(said).not.toContain("hunter2");
    expect(said).not.toContain("\u001b");
    expect(said).not.toContain("\u0007");
  });
});

describe("jsonObject and accessTokenOf", () => {
  it("give the body only when it is a JSON object", () => {
    expect(jsonObject(answer(200, '{"a":1}'))).toEqual({ a: 1 });
    expect(jsonObject(answer(200, "[1]"))).toBeUndefined();
    expect(jsonObject(answer(200, "null"))).toBeUndefined();
    expect(jsonObject(answer(200, "not json"))).toBeUndefined();
  });

  it("give the access token only when it is a non-empty string", () => {
    expect(accessTokenOf(answer(200, '{"access_token":"abc"}'))).toBe("abc");
    expect(accessTokenOf(answer(200, '{"access_token":""}'))).toBeUndefined();
    expect(accessTokenOf(answer(200, '{"access_token":42}'))).toBeUndefined();
    expect(accessTokenOf(answer(200, '[{"access_token":"abc"}]'))).toBeUndefined();
  });
});
