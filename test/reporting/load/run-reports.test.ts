import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect } from "vitest";
import { renderRunReports } from "../../../cli/load/index.ts";
import { EXPIRY, METRIC } from "../../../load/index.ts";
import type { ReportContext } from "../../../reporting/load/index.ts";
import { it } from "../../support/fixtures.ts";
import { sustainedReportContext } from "../../support/run-config-fixture.ts";

const context = sustainedReportContext;

/** What the scenario's handleSummary writes: k6's end-of-test data as it is. */
const k6Data = {
  state: { testRunDurationMs: 10_000 },
  metrics: {
    [METRIC.eventsFailed]: {
      type: "rate",
      contains: "default",
      values: { rate: 0.05, passes: 10, fails: 190 },
      thresholds: { "rate<0.01": { ok: false } },
    },
    [EXPIRY.unexpected]: {
      type: "counter",
      contains: "default",
      values: { count: 0, rate: 0 },
      thresholds: { "count==0": { ok: true } },
    },
    // Tokens used past expires_in + margin after their issue: what lets the verdict say sliding expiry held.
    [EXPIRY.extended]: {
      type: "counter",
      contains: "default",
      values: { count: 5, rate: 0.5 },
      thresholds: { "count>=0": { ok: true } },
    },
  },
};

describe("renderRunReports", () => {
  it("renders the reports in Node from k6's data and adds the harness's verdict to summary.json", async ({
    tmpDir: dir,
  }) => {
    await writeFile(path.join(dir, "summary.json"), JSON.stringify(k6Data));
    const reports = await renderRunReports(dir, context);
    expect(reports?.failedThresholds).toEqual([
      expect.objectContaining({ metric: METRIC.eventsFailed, expression: "rate<0.01", ok: false }),
    ]);
    expect(reports?.text).toContain("FAILED: 1 threshold crossed");
    const summary = JSON.parse(await readFile(path.join(dir, "summary.json"), "utf8")) as {
      metrics: unknown;
      harness: { context: ReportContext; verdict: { level: string } };
    };
    expect(summary.metrics).toEqual(k6Data.metrics);
    expect(summary.harness.context).toEqual(context);
    expect(summary.harness.verdict.level).toBe("held");
    expect(await readFile(path.join(dir, "summary.md"), "utf8")).toContain("# Load report: sustained");
    expect(await readFile(path.join(dir, "junit.xml"), "utf8")).toContain('failures="1"');
  });

  it("renders nothing when k6 wrote no summary", async ({ tmpDir: dir }) => {
    const empty = await mkdtemp(path.join(dir, "empty-"));
    expect(await renderRunReports(empty, context)).toBeUndefined();
  });
});
