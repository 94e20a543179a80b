import { describe, expect, it } from "vitest";
import {
  EVENT_DURATION,
  EVENT_REDIRECTS,
  EVENTS_ACCEPTED,
  EXPIRY,
  METRIC,
  scenarioIterations,
  TOKEN_DURATION,
  TOKEN_FAILURES,
  tokenRefreshes,
} from "../../../load/index.ts";

/** k6's sub-metric syntax, read independently: `metric{tag:value,…}`. */
function parseSubmetric(name: string): { metric: string; tags: Record<string, string> } {
  const match = /^([a-z_]+)\{([^{}]+)\}$/.exec(name);
  if (match?.[1] === undefined || match[2] === undefined) throw new Error(`not a sub-metric: ${name}`);
  const tags = Object.fromEntries(
    match[2].split(",").map((pair) => {
      const [tag, value, ...rest] = pair.split(":");
      if (tag === undefined || value === undefined || rest.length > 0) throw new Error(`bad tag in ${name}`);
      return [tag, value];
    }),
  );
  return { metric: match[1], tags };
}

describe("metric names", () => {
  it("names a refresh by its reason as an issued token request", () => {
    expect(tokenRefreshes("lifetime")).toBe("token_requests{reason:lifetime,outcome:issued}");
    expect(parseSubmetric(tokenRefreshes("rejected"))).toEqual({
      metric: METRIC.tokenRequests,
      tags: { reason: "rejected", outcome: "issued" },
    });
  });

  it("names a scenario's own iterations", () => {
    expect(scenarioIterations("idle-gap")).toBe("iterations{scenario:idle-gap}");
    expect(parseSubmetric(scenarioIterations("token-storm")).tags).toEqual({ scenario: "token-storm" });
  });

  it("spells every fixed sub-metric in k6's syntax, on the metric it belongs to", () => {
    expect(parseSubmetric(TOKEN_FAILURES)).toEqual({ metric: "token_requests", tags: { outcome: "failed" } });
    for (const [kind, name] of Object.entries(EXPIRY)) {
      expect(parseSubmetric(name)).toEqual({ metric: METRIC.expiries, tags: { kind } });
    }
    expect(parseSubmetric(EVENT_DURATION)).toEqual({
      metric: "http_req_duration",
      tags: { endpoint: "events" },
    });
    expect(parseSubmetric(TOKEN_DURATION)).toEqual({
      metric: "http_req_duration",
      tags: { endpoint: "token" },
    });
    expect(parseSubmetric(EVENTS_ACCEPTED)).toEqual({
      metric: "http_reqs",
      tags: { endpoint: "events", expected_response: "true" },
    });
    expect(parseSubmetric(EVENT_REDIRECTS)).toEqual({ metric: "redirects", tags: { endpoint: "events" } });
  });
});
