import {
  isClientError,
  isServerError,
  isSuccess,
  jsonRequest,
} from "../../../contracts/probe/http-request.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

describe("jsonRequest", () => {
  it("posts the value as JSON, its content type overridable by the caller's headers", () => {
    const request = jsonRequest(
      "http://127.0.0.1:1/api/events",
      { a: [1, "é"] },
      { authorization: "Bearer t" },
    );
    expect(request).toEqual({
      method: "POST",
      url: "http://127.0.0.1:1/api/events",
      headers: { "content-type": "application/json", authorization: "Bearer t" },
      body: '{"a":[1,"é"]}',
    });
    expect(JSON.parse(request.body ?? "")).toEqual({ a: [1, "é"] });
    expect(jsonRequest("http://h/", null, { "content-type": "text/plain" }).headers).toEqual({
      "content-type": "text/plain",
    });
  });
});

describe("status classes", () => {
  it("tell 2xx, 4xx and 5xx apart at their bounds", () => {
    const statuses = [199, 200, 299, 300, 399, 400, 499, 500, 599, 600];
    expect(statuses.filter(isSuccess)).toEqual([200, 299]);
    expect(statuses.filter(isClientError)).toEqual([400, 499]);
    expect(statuses.filter(isServerError)).toEqual([500, 599]);
  });
});
