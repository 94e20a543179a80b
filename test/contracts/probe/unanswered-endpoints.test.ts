import { UnansweredEndpoints } from "../../../contracts/index.ts";
import type { HttpRequest } from "../../../contracts/probe/http-request.ts";
import { UNANSWERED_LIMIT } from "../../../contracts/probe/unanswered-endpoints.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

const request = (method: string, url: string): HttpRequest => ({ method, url, headers: {} });
const TOKEN = request("POST", "http://127.0.0.1:8080/auth/oauth/token");

describe("UnansweredEndpoints", () => {
  it("stops asking an endpoint after two requests in a row got no answer, saying so", () => {
    const endpoints = new UnansweredEndpoints();
    expect(UNANSWERED_LIMIT).toBe(2);
    endpoints.record(TOKEN, false);
    expect(endpoints.refusal(TOKEN, 5_000)).toBeUndefined();
    endpoints.record(TOKEN, false);
    expect(endpoints.refusal(TOKEN, 5_000)).toBe(
      "not sent: POST /auth/oauth/token gave no answer within 5.0 s to the last 2 requests",
    );
  });

  it("forgets the streak at any answer", () => {
    const endpoints = new UnansweredEndpoints();
    endpoints.record(TOKEN, false);
    endpoints.record(TOKEN, true);
    endpoints.record(TOKEN, false);
    expect(endpoints.refusal(TOKEN, 5_000)).toBeUndefined();
  });

  it("counts an endpoint by method, origin and path, whatever the query", () => {
    const endpoints = new UnansweredEndpoints();
    endpoints.record(request("POST", "http://127.0.0.1:8080/api/events?try=1"), false);
    endpoints.record(request("POST", "http://127.0.0.1:8080/api/events?try=2"), false);
    expect(endpoints.refusal(request("POST", "http://127.0.0.1:8080/api/events"), 1_000)).toMatch(
      /^not sent: POST \/api\/events gave /,
    );
    expect(endpoints.refusal(request("GET", "http://127.0.0.1:8080/api/events"), 1_000)).toBeUndefined();
    expect(endpoints.refusal(request("POST", "http://127.0.0.1:8081/api/events"), 1_000)).toBeUndefined();
    expect(endpoints.refusal(TOKEN, 1_000)).toBeUndefined();
  });
});
