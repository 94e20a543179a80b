import path from "node:path";
import { describe, expect, it } from "vitest";
import { dashboardPeriodSeconds, singleRunExtras } from "../../../cli/load/single-run-k6-args.ts";

describe("the dashboard's period", () => {
  it("gives a short run about 30 periods, so its charts are drawn at all", () => {
    expect(dashboardPeriodSeconds(12)).toBe(1);
    expect(dashboardPeriodSeconds(90)).toBe(3);
    expect(dashboardPeriodSeconds(300)).toBe(10);
  });

  it("keeps about 30 periods past k6's 10 s default, so a long run's dashboard sorts its samples at most about 30 times", () => {
    expect(dashboardPeriodSeconds(600)).toBe(20);
    expect(900 / dashboardPeriodSeconds(900)).toBe(30);
  });

  it("stops at 30 s, so a period's buffered samples stay bounded", () => {
    expect(dashboardPeriodSeconds(3600)).toBe(30);
    expect(dashboardPeriodSeconds(4 * 3600)).toBe(30);
  });

  it("is what the run hands k6, beside the export in the report folder", () => {
    const extras = singleRunExtras({
      reportDir: "/reports/run",
      expectedSeconds: 3600,
      address: "127.0.0.1:6565",
      samples: { args: ["--out", "harness-samples=/reports/run/samples.txt.gz"], file: "", own: true },
      outs: [],
    });
    expect(extras.env).toEqual({
      K6_WEB_DASHBOARD: "true",
      K6_WEB_DASHBOARD_EXPORT: path.join("/reports/run", "dashboard.html"),
      K6_WEB_DASHBOARD_HOST: "127.0.0.1",
      K6_WEB_DASHBOARD_PORT: "0",
      K6_WEB_DASHBOARD_PERIOD: "30s",
    });
    expect(extras.args).toEqual([
      "--address",
      "127.0.0.1:6565",
      "--out",
      "harness-samples=/reports/run/samples.txt.gz",
    ]);
  });
});
