import { createServer } from "node:net";
import { readCappedText } from "../../transport/connection/index.ts";

/** k6's ExecutionStatus "paused before run": VUs are initialised and the test waits for a resume. */
const PAUSED_BEFORE_RUN = 4;
const POLL_MS = 100;

/** A free loopback port for one k6 REST API (k6 needs a fixed --address; the port is freed just before k6 binds it). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

interface StatusBody {
  readonly data?: { readonly attributes?: { readonly status?: number; readonly paused?: boolean } };
}

/**
 * Waits until the k6 at `address` has initialised its VUs and waits paused (GET /v1/status). False when `gone`
 * settles first (k6 exited), the deadline passes or `signal` aborts.
 */
export async function waitUntilPaused(
  address: string,
  gone: Promise<unknown>,
  deadlineMs: number,
  signal: AbortSignal,
): Promise<boolean> {
  let exited = false;
  const exit = () => {
    exited = true;
  };
  // Settled either way: a k6 run that rejects must not also leave an unhandled rejection behind.
  void gone.then(exit, exit);
  const until = Date.now() + deadlineMs;
  while (!exited && !signal.aborted && Date.now() < until) {
    try {
      // undici loads only when k6 is asked something, so importing k6-tooling stays light.
      const { request } = await import("undici");
      const response = await request(`http://${address}/v1/status`, {
        signal,
        headersTimeout: 2000,
        bodyTimeout: 2000,
      });
      const body = JSON.parse(await readCappedText(response.body)) as StatusBody;
      if (body.data?.attributes?.status === PAUSED_BEFORE_RUN && body.data.attributes.paused === true) {
        return true;
      }
    } catch {
      // Not listening yet: k6 opens its API early in start-up.
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return false;
}

/** Resumes a paused k6 through its REST API (PATCH /v1/status {paused:false}); throws when k6 refuses. */
export async function resume(address: string, signal: AbortSignal): Promise<void> {
  const { request } = await import("undici");
  const response = await request(`http://${address}/v1/status`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ data: { type: "status", id: "default", attributes: { paused: false } } }),
    signal,
    headersTimeout: 5000,
    bodyTimeout: 5000,
  });
  const text = await readCappedText(response.body);
  if (response.statusCode !== 200)
    throw new Error(`k6 at ${address} refused to resume: ${response.statusCode} ${text}`);
}

/** One metric's current values as k6's REST API gives them (a counter's count and rate, a trend's p(95), …). */
export type MetricSample = Readonly<Record<string, number>>;

interface MetricBody {
  readonly data?: {
    readonly id?: string;
    readonly attributes?: { readonly sample?: unknown };
  };
}

/** A sample's numeric values, or undefined when it holds none. */
function numbersOf(sample: unknown): MetricSample | undefined {
  if (typeof sample !== "object" || sample === null) return undefined;
  return Object.fromEntries(
    Object.entries(sample).filter((entry): entry is [string, number] => typeof entry[1] === "number"),
  );
}

/**
 * The current samples of the named metrics and sub-metrics of the k6 at `address` (GET /v1/metrics/{name}, one
 * each); a metric k6 has not seen yet is left out. One by one, not GET /v1/metrics: that formats every metric, and
 * sorts every trend's samples (all of them, kept for the summary) while it holds the lock k6 takes to record
 * samples; a poll then cost more the longer and faster the run.
 */
export async function readMetrics(
  address: string,
  names: readonly string[],
  signal: AbortSignal,
): Promise<Map<string, MetricSample>> {
  const metrics = new Map<string, MetricSample>();
  await Promise.all(
    names.map(async (name) => {
      const { request } = await import("undici");
      const response = await request(`http://${address}/v1/metrics/${encodeURIComponent(name)}`, {
        signal,
        headersTimeout: 2000,
        bodyTimeout: 2000,
      });
      const text = await readCappedText(response.body);
      if (response.statusCode === 404) return;
      if (response.statusCode !== 200) throw new Error(`k6 at ${address} answered ${response.statusCode}`);
      const sample = numbersOf((JSON.parse(text) as MetricBody).data?.attributes?.sample);
      if (sample !== undefined) metrics.set(name, sample);
    }),
  );
  return metrics;
}
