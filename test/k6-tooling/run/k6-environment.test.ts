import { describe, expect, it } from "vitest";
import { k6Environment } from "../../../cli/load/index.ts";

describe("k6Environment", () => {
  it("passes k6 the few inherited variables, the user's K6_* settings and the harness's own, nothing else", () => {
    const env = k6Environment(
      {
        PATH: "/usr/bin",
        HOME: "/home/u",
        K6_WEB_DASHBOARD_PORT: "5665",
        K6_BIN: "/opt/k6",
        EVENT_API_CLIENT_SECRET: "never-in-k6",
        AWS_SECRET_ACCESS_KEY: "never-in-k6-either",
      },
      { EH_VU: "{}" },
    );
    expect(env).toEqual({
      PATH: "/usr/bin",
      HOME: "/home/u",
      K6_WEB_DASHBOARD_PORT: "5665",
      K6_NO_USAGE_REPORT: "true",
      EH_VU: "{}",
    });
  });

  it("passes the user's Go runtime settings to k6, and only those", () => {
    const env = k6Environment(
      { PATH: "/usr/bin", GOGC: "400", GOMEMLIMIT: "2GiB", GODEBUG: "gctrace=1", GOMAXPROCS: "" },
      {},
    );
    expect(env).toEqual({ PATH: "/usr/bin", GOGC: "400", GOMEMLIMIT: "2GiB", K6_NO_USAGE_REPORT: "true" });
  });
});
