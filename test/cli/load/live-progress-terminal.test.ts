import { createServer } from "node:http";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLiveProgress } from "../../../cli/load/live-progress.ts";
import type { Loopback } from "../../support/loopback.ts";
import { listenOnLoopback } from "../../support/loopback.ts";

/** A k6 REST API mid-run with large counts, so the progress line is longer than 80 columns. */
let k6: Loopback;
beforeAll(async () => {
  const samples: Record<string, Record<string, number>> = {
    "http_reqs{endpoint:events,expected_response:true}": { count: 123_456_789 },
    events_rejected: { count: 98_765 },
    "http_req_duration{endpoint:events}": { "p(95)": 1234 },
    "token_requests{reason:idle,outcome:issued}": { count: 4_321 },
    "token_expiries{kind:unexpected}": { count: 12 },
  };
  k6 = await listenOnLoopback(
    createServer((req, res) => {
      const name = decodeURIComponent((req.url ?? "").replace(/^\/v1\/metrics\//, ""));
      const sample = samples[name];
      if (sample === undefined) res.writeHead(404).end();
      else res.end(JSON.stringify({ data: { type: "metrics", id: name, attributes: { sample } } }));
    }),
  );
});
afterAll(() => k6.close());

describe("live load progress on an 80-column terminal", () => {
  it("rewrites one line cut to the width, so no wrapped row is left behind, and ends it with a newline", async () => {
    const terminal = Object.assign(new PassThrough().setEncoding("utf8"), { isTTY: true, columns: 80 });
    const writes: string[] = [];
    terminal.on("data", (chunk: string) => writes.push(chunk));
    const stop = startLiveProgress({
      addresses: [k6.url.replace("http://", "")],
      plannedMs: 3_600_000,
      stderr: terminal,
      signal: new AbortController().signal,
      everyMs: 20,
    });
    await new Promise<void>((resolve) => terminal.once("data", () => resolve()));
    stop();
    await new Promise((resolve) => setImmediate(resolve));
    const [line, ...rest] = writes;
    expect(line?.startsWith("\r\x1b[2K")).toBe(true);
    const shown = (line ?? "").replace("\r\x1b[2K", "");
    expect(shown).toMatch(/^event-harness: \S+ of about 1h · 123456789 accepted, 98765 failed · .*…$/);
    expect([...shown].length).toBeLessThanOrEqual(79);
    expect(shown).not.toContain("\n");
    expect(rest.at(-1)).toBe("\n");
  });
});
