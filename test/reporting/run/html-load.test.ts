import { describe, expect, it } from "vitest";
import type { ReportFacts } from "../../../reporting/load/index.ts";
import { renderLinks, renderLoadBody } from "../../../reporting/run/html-load.ts";
import type {
  CapacityDigest,
  LoadSummary,
  PartDetails,
  PartOutcome,
  TimeSeries,
} from "../../../reporting/run/index.ts";
import { TIME_SERIES_FORMAT } from "../../../reporting/run/index.ts";
import { elementsOf, markupElements } from "../../support/report-markup.ts";
import { capacityDigest } from "../../support/run-part-details.ts";

const OUTCOME: PartOutcome = {
  id: "load-sustained",
  kind: "load",
  title: "Load: sustained",
  command: "event-harness load --scenario sustained",
  verdict: "passed",
  exitCode: 0,
  startedAt: "2026-01-01T00:00:00.000Z",
  durationMs: 12_000,
};

const FACTS: ReportFacts = {
  runSeconds: 12,
  warmUpSeconds: 2,
  loadSeconds: 10,
  eventsAccepted: 190,
  eventsRejected: 10,
  acceptedPerSecond: 19,
  errorRate: 0.05,
  rejectedByStatus: [["503", 10]],
  iterations: 200,
  droppedIterations: 0,
  eventLatency: [
    ["med", 12],
    ["p(95)", 40],
    ["max", 90],
  ],
  tokenRequests: 5,
  tokenRequestsByReason: [["initial", 5]],
  tokenRefreshes: 1,
  tokenFailures: 0,
  tokenLatency: [],
  unexpectedExpiries: 1,
  idleOutlived: 0,
  idleExpiries: 2,
  extendedTokens: 0,
  idleSurvivals: 0,
};

const LOAD: LoadSummary = {
  facts: FACTS,
  thresholds: [
    { metric: "events_failed", expression: "rate<0.01", ok: false, observed: "rate=0.05" },
    { metric: "http_req_duration", expression: "p(95)<500", ok: false, observed: "p(95)=40ms" },
    { metric: "checks", expression: "rate>0.9", ok: true, observed: undefined },
  ],
  waived: [{ metric: "http_req_duration", expression: "p(95)<500" }],
  accepted: [],
  context: { rate: 20, vus: 10, durationSeconds: 60, clientModel: "shared", expiresInSeconds: 30 },
};

const SERIES: TimeSeries = {
  format: TIME_SERIES_FORMAT,
  startedAt: 0,
  stepSeconds: 1,
  length: 3,
  lastStepSeconds: 1,
  counts: {
    "events.accepted": [10, 20, 30],
    "token.refreshes.idle": [0, 1, 0],
    "token.refreshes.lifetime": [1, 0, 0],
  },
  latency: { events: { p50: [1, 2, 3], p95: [4, 5, 6], p99: [7, 8, 9], max: [10, 11, 12] } },
  gauges: {},
};

const details = (extra: Partial<PartDetails> = {}): PartDetails => ({
  outcome: OUTCOME,
  files: ["load-sustained/summary.md", "load-sustained/dashboard.html", "load-sustained/timeseries.json"],
  load: LOAD,
  series: SERIES,
  ...extra,
});

const tile = (html: string, label: string) => {
  const tiles = elementsOf(html, "div", "tile");
  const found = tiles.find((t) => t.text.startsWith(label));
  expect(found, label).toBeDefined();
  return found?.text.slice(label.length) ?? "";
};

describe("renderLoadBody", () => {
  it("says what ran in one line: rate, VUs, duration, client model and expires_in", () => {
    const muted = elementsOf(renderLoadBody(details()), "p", "muted").map((p) => p.text);
    expect(muted[0]).toBe("20 events/s · 10 VUs · 1m · client model shared · expires_in 30 s");
  });

  it("shows the key figures as tiles, the error rate and violations marked bad", () => {
    const html = renderLoadBody(details());
    expect(tile(html, "Events accepted")).toBe("19019/s over 10.0 s after a 2.0 s token warm-up");
    expect(tile(html, "Error rate")).toBe("5 %10 not accepted");
    expect(tile(html, "Token requests")).toBe("51 refresh");
    expect(tile(html, "Sliding-expiry violations")).toBe("11 early expiry, 0 idle tokens outlived");
    const bad = elementsOf(html, "div", "bad").map((t) => t.text);
    expect(bad.some((t) => t.startsWith("Error rate"))).toBe(true);
    expect(bad.some((t) => t.startsWith("Sliding-expiry violations"))).toBe(true);
    expect(elementsOf(html, "div", "tile").some((t) => t.text.startsWith("Dropped iterations"))).toBe(false);
  });

  it("adds a dropped-iterations tile only when k6 dropped some", () => {
    const html = renderLoadBody(details({ load: { ...LOAD, facts: { ...FACTS, droppedIterations: 7 } } }));
    expect(tile(html, "Dropped iterations")).toBe("7k6 could not keep the rate");
  });

  it("reads a failed threshold the ledger waived as WAIVED, never PASS, and the others as they are", () => {
    const rows = elementsOf(renderLoadBody(details()), "tr").slice(1);
    expect(rows.map((row) => row.text)).toEqual([
      "FAILevents_failedrate<0.01rate=0.05",
      "WAIVEDhttp_req_durationp(95)<500p(95)=40ms",
      "PASSchecksrate>0.9–",
    ]);
  });

  it("draws throughput, latency and token charts, with a bar per refresh reason", () => {
    const html = renderLoadBody(details());
    expect(elementsOf(html, "figure").map((f) => f.attributes.id)).toEqual([
      "load-sustained-throughput",
      "load-sustained-latency",
      "load-sustained-tokens",
    ]);
    const bars = elementsOf(html, "g", "bar").map((g) => g.attributes["data-series"]);
    expect(bars).toEqual([
      "refresh: idle",
      "refresh: lifetime",
      "idle expiry confirmed",
      "sliding-expiry violations",
    ]);
  });

  it("adds token request failures to the token chart only when there were some", () => {
    const series = { ...SERIES, counts: { ...SERIES.counts, "token.request-failures": [0, 0, 2] } };
    const bars = elementsOf(renderLoadBody(details({ series })), "g", "bar").map(
      (g) => g.attributes["data-series"],
    );
    expect(bars.at(-1)).toBe("token request failures");
  });

  it("says so when there is no time series, or no summary for a part that ran", () => {
    const bare = renderLoadBody({ outcome: OUTCOME, files: [] });
    const muted = elementsOf(bare, "p", "muted").map((p) => p.text);
    expect(muted).toEqual([
      "No time series: k6 left no per-request metrics for this part.",
      "No summary.json: k6 did not finish its summary.",
    ]);
    const skipped = renderLoadBody({ outcome: { ...OUTCOME, verdict: "skipped" }, files: [] });
    expect(elementsOf(skipped, "p", "muted").map((p) => p.text)).not.toContain(
      "No summary.json: k6 did not finish its summary.",
    );
  });

  it("states the baseline comparison, names the regressed figures and draws the baseline's p50–p95 band", () => {
    const html = renderLoadBody(
      details({
        comparison: {
          baseline: "baseline.json",
          status: "REGRESSED",
          line: "events p95 +30 ms",
          figures: [
            { id: "events.p50", status: "UNCHANGED", baseline: 10, candidate: 11 },
            { id: "events.p95", status: "REGRESSED", baseline: 20, candidate: 50 },
          ],
        },
      }),
    );
    const callout = elementsOf(html, "div", "callout").find((c) => c.text.startsWith("Against the baseline"));
    expect(callout?.attributes.class).toBe("callout broken");
    expect(callout?.text).toBe(
      "Against the baseline baseline.json: REGRESSED REGRESSED: events.p95 events p95 +30 ms",
    );
    const band = elementsOf(html, "rect", "band");
    expect(band.map((b) => b.attributes["data-band"])).toEqual(["baseline p50–p95"]);
  });

  it("keeps the sliding-expiry verdict and the generator's signals as text, whatever they hold", () => {
    const html = renderLoadBody(
      details({
        load: {
          ...LOAD,
          slidingExpiry: { level: 'broken"><script>', reasons: ["<img src=x onerror=alert(1)>"] },
          generator: { limited: true, measured: "k6", signals: ["<script>alert(2)</script>"] },
        },
      }),
    );
    expect(elementsOf(html, "script")).toEqual([]);
    expect(elementsOf(html, "img")).toEqual([]);
    const items = elementsOf(html, "li").map((li) => li.text);
    expect(items).toContain("<img src=x onerror=alert(1)>");
    expect(items).toContain("<script>alert(2)</script>");
  });

  it("shows a capacity search with its own body, its comparison and a link to capacity.html", () => {
    const capacity: CapacityDigest = {
      ...capacityDigest,
      verdictLine: "PASSED: held 40/s",
      broken: undefined,
    };
    const html = renderLoadBody({
      outcome: OUTCOME,
      files: ["load-sustained/capacity.html", "load-sustained/summary.md"],
      capacity,
      comparison: { baseline: "b.json", status: "UNCHANGED", figures: [] },
    });
    const callouts = elementsOf(html, "div", "callout").map((c) => c.text);
    expect(callouts[0]).toContain("highest rate held 40 events/s");
    expect(callouts[1]).toBe("Against the baseline b.json: UNCHANGED ");
    expect(elementsOf(html, "a").map((a) => a.attributes.href)).toEqual([
      "load-sustained/capacity.html",
      "load-sustained/summary.md",
    ]);
    expect(elementsOf(html, "div", "tiles")).toEqual([]);
  });
});

describe("renderLinks", () => {
  it("links only the files the part wrote, in the order asked, the dashboard first", () => {
    const html = renderLoadBody(details());
    expect(elementsOf(html, "a").map((a) => [a.attributes.href, a.text])).toEqual([
      ["load-sustained/dashboard.html", "k6 dashboard"],
      ["load-sustained/summary.md", "summary.md"],
      ["load-sustained/timeseries.json", "timeseries.json"],
    ]);
  });

  it("writes nothing when none of the wanted files exists", () => {
    expect(renderLinks(details({ files: [] }), [["summary.md", "summary.md"]])).toBe("");
  });

  it("encodes a part folder's odd characters in the link, and escapes its label", () => {
    const odd: PartDetails = { outcome: { ...OUTCOME, id: "load #1" }, files: ["load #1/summary.md"] };
    const links = markupElements(renderLinks(odd, [["summary.md", "<b>summary</b>"]])).filter(
      (e) => e.tag === "a",
    );
    expect(links.map((a) => [a.attributes.href, a.text])).toEqual([
      ["load%20%231/summary.md", "<b>summary</b>"],
    ]);
  });
});
