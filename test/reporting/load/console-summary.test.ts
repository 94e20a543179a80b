import { describe, expect, it } from "vitest";
import { renderText } from "../../../reporting/load/console-summary.ts";
import type { LoadResult, ReportContext } from "../../../reporting/load/index.ts";
import {
  crossedThreshold as crossed,
  heldThreshold as held,
  limitedGenerator,
  loadFacts,
  passedResult,
  reportInput,
  redirectsThreshold as waived,
} from "../../support/load-report-input.ts";
import { sustainedReportContext } from "../../support/run-config-fixture.ts";

describe("renderText", () => {
  it("prints the load, thresholds, verdict, counts and the run's verdict line, short and plain", () => {
    expect(renderText(reportInput({ thresholds: [held] }))).toBe(
      [
        "",
        "  sustained · 20 events/s, for 10s, 5 VUs, after a 2s token warm-up · client model sliding",
        "",
        "  THRESHOLDS",
        "    ✓ events_failed rate<0.05  (rate=1.5%)",
        "",
        "  SLIDING EXPIRY: HELD",
        "    5 tokens stayed valid while in use past expires_in + 0.2s after their issue.",
        "",
        "  events   accepted 197 (19.7/s), not accepted 3 [503×2 other×1], dropped iterations 0",
        "  latency  avg=4 ms · p(95)=10 ms",
        "  k6       k6 used 12 % of its 2 CPUs over its busiest 5 s.",
        "  tokens   requests 7, refreshes 2, failed 0, latency avg=3 ms",
        "",
        "  PASSED: thresholds held",
        "",
        "",
      ].join("\n"),
    );
  });

  it("marks a crossed threshold ✗ and one the ledger accepts WAIVED, and ends on the failing verdict", () => {
    const entry = { id: "load.redirects", reason: "proxy", expires: "2027-01-31" };
    const result: LoadResult = {
      ...passedResult,
      outcome: "failed",
      failedThresholds: [crossed],
      waivedThresholds: [waived],
      accepted: [{ entry, state: "waived", detail: "fails, waived: proxy", level: "MUST" }],
    };
    const lines = renderText(reportInput({ thresholds: [crossed, waived], result })).split("\n");
    expect(lines).toContain("    ✗ http_req_duration{endpoint:events} p(95)<5  (p(95)=9.5ms)");
    expect(lines).toContain("    ~ WAIVED redirects count==0");
    expect(lines).toContain("  ACCEPTED DEVIATIONS");
    expect(lines).toContain("    WAIVED     load.redirects: accepted until 2027-01-31: proxy");
    expect(lines.at(-3)).toBe(
      "  FAILED: 1 threshold crossed: http_req_duration{endpoint:events} p(95)<5 (p(95)=9.5ms), 1 WAIVED",
    );
  });

  it("adds the instances' sums, a limited generator's signals, a dropped cause and every warning", () => {
    const instance = {
      eventsAccepted: 98,
      eventsRejected: 1,
      iterations: 100,
      droppedIterations: 2,
      tokenRequests: 3,
    };
    const context: ReportContext = {
      ...sustainedReportContext,
      instances: [
        { ...instance, segment: "0:1/2" },
        { ...instance, segment: "1/2:1", eventsAccepted: 99 },
      ],
      vuShortage: "Insufficient VUs",
      warnings: ["TLS was not verified (--insecure)"],
    };
    const stale = {
      entry: { id: "load.events_failed", reason: "x", expires: "2027-01-31" },
      state: "stale",
      detail: "passes now: remove the entry",
      level: "MUST",
    } as const;
    const text = renderText(
      reportInput({
        context,
        facts: { ...loadFacts, droppedIterations: 4, eventLatency: [], tokenLatency: [] },
        generator: limitedGenerator,
        result: { ...passedResult, accepted: [stale], ledgerFile: "accepted.json" },
      }),
    );
    const lines = text.split("\n");
    expect(lines).toContain("  instances 2: accepted 98 + 99 = 197, iterations 100 + 100 = 200");
    expect(lines).toContain(`  k6       LIMITED the run: ${limitedGenerator.measured}`);
    expect(lines).toContain(`    ${limitedGenerator.signals[1]?.detail}`);
    expect(lines).toContain("  latency  –");
    expect(lines).toContain("  tokens   requests 7, refreshes 2, failed 0, latency –");
    expect(text).toContain('dropped iterations 4: k6 ran out of VUs ("Insufficient VUs")');
    expect(lines).toContain("  WARNING: TLS was not verified (--insecure)");
    expect(lines).toContain(
      "  WARNING: STALE WAIVER: load.events_failed passes, and accepted.json still waives it until 2027-01-31: remove the entry, or its next failure reads WAIVED and passes",
    );
    expect(lines.at(-3)).toBe("  PASSED: thresholds held; STALE WAIVER: load.events_failed");
  });
});
