import { vi } from "vitest";
import { describe, expect, it } from "../../support/fixtures.ts";

// handleSummary runs only in k6: the VU's settings are a stand-in naming the summary file.
vi.mock("../../../load/lib/k6-vu.ts", () => ({ settings: { summaryFile: "/results/pod-1/summary.json" } }));

/** summary-export.ts runs under k6's types only: imported by a computed name, not as a type. */
async function handleSummaryOf(): Promise<(data: object) => Record<string, string>> {
  const specifier = "../../../load/lib/summary-export.ts";
  return (
    (await import(/* @vite-ignore */ specifier)) as {
      handleSummary: (data: object) => Record<string, string>;
    }
  ).handleSummary;
}

describe("handleSummary", () => {
  it("writes k6's end-of-test data as it is to the settings' summary file, and nothing else", async () => {
    const data = {
      metrics: { events_failed: { type: "rate", values: { rate: 0.01, passes: 1, fails: 99 } } },
      root_group: { name: "", checks: [] },
      note: 'quotes " and \u2028 survive',
    };
    const written = (await handleSummaryOf())(data);
    expect(Object.keys(written)).toEqual(["/results/pod-1/summary.json"]);
    expect(JSON.parse(written["/results/pod-1/summary.json"] ?? "")).toEqual(data);
  });
});
