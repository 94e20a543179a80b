import { createServer } from "node:http";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  LATENCY_REREAD_GROWTH,
  latencyDue,
  progressFigures,
  progressLine,
  startLiveProgress,
} from "../../../cli/load/live-progress.ts";
import type { Loopback } from "../../support/loopback.ts";
import { listenOnLoopback } from "../../support/loopback.ts";

/** What k6's REST API knows mid-run, for one instance (as GET /v1/metrics would list it). */
function metricsBody(answered: number, p95: number, redirected: number) {
  const metric = (id: string, sample: Record<string, number>) => ({
    type: "metrics",
    id,
    attributes: { sample },
  });
  return {
    data: [
      // k6 counts a 3xx as an expected response: redirected events are among these.
      metric("http_reqs{endpoint:events,expected_response:true}", { count: answered, rate: 10 }),
      metric("redirects{endpoint:events}", { count: redirected, rate: 0.1 }),
      metric("events_rejected", { count: 2, rate: 0.1 }),
      metric("http_req_duration{endpoint:events}", { avg: 3, "p(90)": 5, "p(95)": p95 }),
      metric("token_requests{reason:idle,outcome:issued}", { count: 1, rate: 0.1 }),
      metric("token_requests{reason:rejected,outcome:issued}", { count: 3, rate: 0.1 }),
      metric("token_expiries{kind:unexpected}", { count: 1, rate: 0.1 }),
      metric("token_expiries{kind:outlived}", { count: 1, rate: 0.1 }),
      metric("token_expiries{kind:idle}", { count: 9, rate: 0.1 }),
    ],
  };
}

let instances: Loopback[];
beforeAll(async () => {
  instances = await Promise.all(
    [
      [100, 12, 2],
      [50, 40, 0],
    ].map(([answered, p95, redirected]) =>
      listenOnLoopback(
        createServer((req, res) => {
          // Only GET /v1/metrics/{name} is served: listing every metric makes k6 sort every trend.
          const name = decodeURIComponent((req.url ?? "").replace(/^\/v1\/metrics\//, ""));
          const metric = metricsBody(answered ?? 0, p95 ?? 0, redirected ?? 0).data.find(
            (m) => m.id === name,
          );
          if (metric === undefined) res.writeHead(404).end();
          else res.end(JSON.stringify({ data: metric }));
        }),
      ),
    ),
  );
});
afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.close()));
});

describe("live load progress", () => {
  it("shows the time alone while no figures could be read", () => {
    expect(progressLine(5000, 30_000, undefined)).toBe("event-harness: 5s of about 30s");
  });

  it("never counts a redirected event as accepted, even while the redirect count is ahead", () => {
    const instance = (answered: number, redirected: number) =>
      new Map([
        ["http_reqs{endpoint:events,expected_response:true}", { count: answered }],
        ["redirects{endpoint:events}", { count: redirected }],
      ]);
    expect(progressFigures([instance(10, 4), instance(7, 0)]).accepted).toBe(13);
    expect(progressFigures([instance(1, 2)]).accepted).toBe(0);
  });

  it("sums the instances' counts from their k6 REST APIs, shows the worst p95, in plain lines where stderr is no terminal", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    const stderr = new PassThrough().setEncoding("utf8");
    const lines: string[] = [];
    stderr.on("data", (chunk: string) => lines.push(chunk));
    const stop = startLiveProgress({
      addresses: instances.map((instance) => instance.url.replace("http://", "")),
      plannedMs: 30_000,
      stderr,
      signal: new AbortController().signal,
      everyMs: 20,
    });
    await new Promise<void>((resolve) => stderr.once("data", () => resolve()));
    stop();
    process.off("warning", onWarning);
    // Sixteen reads at once on one abort signal must not make Node warn of a leak on the user's stderr.
    expect(warnings).toEqual([]);
    expect(lines[0]).toMatch(
      /^event-harness: \S+ of about 30s · 148 accepted, 4 failed · [\d.]+\/s · p95 40 ms · 8 token refreshes · 4 expiry violations\n$/,
    );
  });

  it("reads the p95 again only once the run has grown by a tenth", () => {
    expect(LATENCY_REREAD_GROWTH).toBe(1.1);
    expect(latencyDue(0, undefined)).toBe(false);
    expect(latencyDue(1, undefined)).toBe(true);
    expect(latencyDue(1_099_999, 1_000_000)).toBe(false);
    expect(latencyDue(1_100_000, 1_000_000)).toBe(true);
  });

  it("keeps showing the last p95 while the run grows by less than a tenth, and reads it again when it has", async () => {
    let answered = 1000;
    let latencyReads = 0;
    const k6 = await listenOnLoopback(
      createServer((req, res) => {
        const name = decodeURIComponent((req.url ?? "").replace(/^\/v1\/metrics\//, ""));
        if (name === "http_req_duration{endpoint:events}") {
          latencyReads += 1;
          res.end(JSON.stringify({ data: { attributes: { sample: { "p(95)": 7 + latencyReads } } } }));
        } else if (name === "http_reqs{endpoint:events,expected_response:true}") {
          res.end(JSON.stringify({ data: { attributes: { sample: { count: answered } } } }));
        } else res.writeHead(404).end();
      }),
    );
    try {
      const stderr = new PassThrough().setEncoding("utf8");
      const lines: string[] = [];
      stderr.on("data", (chunk: string) => lines.push(chunk));
      const stop = startLiveProgress({
        addresses: [k6.url.replace("http://", "")],
        plannedMs: 30_000,
        stderr,
        signal: new AbortController().signal,
        everyMs: 10,
      });
      const linesUntil = (n: number) =>
        new Promise<void>((resolve) => {
          const check = () => (lines.length >= n ? resolve() : stderr.once("data", check));
          check();
        });
      await linesUntil(5);
      // 5 % more events: below a tenth, so the p95 is not read again.
      answered = 1050;
      await linesUntil(10);
      answered = 1100;
      await linesUntil(15);
      stop();
      expect(latencyReads).toBe(2);
      expect(lines.slice(0, 10).every((line) => line.includes("· p95 8 ms ·"))).toBe(true);
      expect(lines.at(-1)).toContain("1100 accepted, 0 failed");
      expect(lines.at(-1)).toContain("· p95 9 ms ·");
    } finally {
      await k6.close();
    }
  });
});
