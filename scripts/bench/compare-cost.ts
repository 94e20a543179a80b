// What `compare` costs on baselines built to be expensive: a hostile count ([[100, 1e9]]), 60,000 token requests a
// side, the longest record a comparison reads (100,000 units of 0.5 s whose every figure differs from unit to unit,
// judged in 1 s windows) and a tenth of it, and 10,000 units of a day (no plausible run), against an ordinary 60 s
// baseline at 100/s measured in the same run. Time and peak RSS of the CLI process, median of ROUNDS. Development
// only: `npm run bench:compare`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createSfc32, fraction } from "../../core/index.ts";
import type { LoadRecord, UnitRecord } from "../../reporting/compare/index.ts";
import {
  compareLoad,
  DEFAULT_COMPARE_OPTIONS,
  LatencyHistogram,
  LOAD_RECORD_FORMAT,
  parseLoadRecord,
} from "../../reporting/compare/index.ts";

const CLI = fileURLToPath(new URL("../../bin/event-harness.js", import.meta.url));
const PEAK_RSS_HOOK = fileURLToPath(new URL("../../test/support/peak-rss-hook.mjs", import.meta.url));
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const work = mkdtempSync(path.join(tmpdir(), "compare-cost-"));

/** A 60 s run at 100/s in 0.5 s units: 50 events a unit around 21 ms, `tokens` token requests in all. */
function record(seed: number, tokens: number): LoadRecord {
  const next = createSfc32(seed, 0x5eed, 0x35, 0);
  const random = () => fraction(next);
  const units: UnitRecord[] = [];
  const perUnit = Math.ceil(tokens / 125);
  let left = tokens;
  for (let u = 0; u < 125; u += 1) {
    const events = new LatencyHistogram();
    const token = new LatencyHistogram();
    for (let i = 0; i < 50; i += 1) events.add(20 + random() * 2 + (random() < 0.05 ? 20 * random() : 0));
    for (let i = 0; i < perUnit && left > 0; i += 1, left -= 1)
      token.add(22 * Math.exp(0.4 * (random() - 0.5)));
    units.push({
      events: events.entries(),
      eventsMax: events.max,
      token: token.entries(),
      tokenMax: token.max,
      accepted: 50,
      failed: 0,
    });
  }
  return {
    format: LOAD_RECORD_FORMAT,
    kind: "load",
    settings: {
      scenario: "sustained",
      rate: 100,
      vus: 10,
      durationSeconds: 60,
      clientModel: "sliding",
      expiresInSeconds: 5,
    },
    versions: { harness: "0.1.0", k6: "v2.2.0" },
    runId: `bench-${seed}`,
    startedAt: "2026-11-27T00:00:00.000Z",
    target: { embedded: true, origin: "http://127.0.0.1:1", sandbox: { latencyMs: 20, faults: [] } },
    instances: 1,
    unitMs: 500,
    warmUpUnits: 17,
    units,
  };
}

/**
 * `count` units of `unitMs` whose latencies, maxima and outcomes differ from unit to unit, so that every figure's
 * sample holds as many distinct values as there are units: the costliest record of that length.
 */
function long(seed: number, count: number, unitMs: number): LoadRecord {
  const units: UnitRecord[] = [];
  for (let i = 0; i < count; i += 1) {
    const bucket = 300 + ((i * seed) % 40);
    units.push({
      events: [
        [bucket, 90],
        [bucket + 60, 10],
      ],
      eventsMax: 40 + ((i * 7919 * seed) % 100_000) / 1000,
      token: [[280, 1]],
      tokenMax: 5,
      accepted: 90 + (i % 11),
      failed: (i * seed) % 13,
    });
  }
  return { ...record(seed, 10), unitMs, warmUpUnits: 1, units };
}

function hostile(base: LoadRecord): LoadRecord {
  const [first, ...rest] = base.units as UnitRecord[];
  return { ...base, units: [{ ...(first as UnitRecord), token: [[100, 1e9]], tokenMax: 0.03 }, ...rest] };
}

function write(name: string, value: LoadRecord): string {
  const file = path.join(work, `${name}.json`);
  writeFileSync(file, JSON.stringify(value));
  return file;
}

interface Cost {
  readonly seconds: number;
  readonly peakMb: number;
  readonly code: number | null;
}

function compare(base: string, candidate: string, extra: readonly string[]): Cost {
  const rssFile = path.join(work, "peak-rss");
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    ["--import", PEAK_RSS_HOOK, CLI, "compare", ...extra, base, candidate],
    {
      encoding: "utf8",
      env: { ...process.env, EAH_PEAK_RSS_FILE: rssFile },
    },
  );
  const seconds = (performance.now() - started) / 1000;
  const peakMb = Number(readFileSync(rssFile, "utf8")) / 1024;
  rmSync(rssFile, { force: true });
  return { seconds, peakMb, code: run.status };
}

function median(costs: readonly Cost[]): Cost {
  const by = <K extends "seconds" | "peakMb">(key: K) =>
    [...costs].map((c) => c[key]).sort((a, b) => a - b)[Math.floor(costs.length / 2)] as number;
  return { seconds: by("seconds"), peakMb: by("peakMb"), code: costs[0]?.code ?? null };
}

const WINDOW_1S = ["--window", "1s"];
const cases: Array<[string, string, string, readonly string[]]> = [
  [
    "ordinary 60 s baselines (10 token requests a side)",
    write("a", record(1, 10)),
    write("b", record(2, 10)),
    [],
  ],
  [
    "a hostile count [[100, 1e9]] on each side",
    write("ha", hostile(record(1, 10))),
    write("hb", hostile(record(2, 10))),
    [],
  ],
  ["60,000 token requests a side", write("ta", record(1, 60_000)), write("tb", record(2, 60_000)), []],
  [
    "10,000 distinct units of 0.5 s a side, --window 1s",
    write("la", long(1, 10_000, 500)),
    write("lb", long(3, 10_000, 500)),
    WINDOW_1S,
  ],
  [
    "100,000 distinct units of 0.5 s a side (the most a record holds), --window 1s",
    write("xa", long(1, 100_000, 500)),
    write("xb", long(3, 100_000, 500)),
    WINDOW_1S,
  ],
  [
    "10,000 units of a day a side (refused: no plausible run)",
    write("da", long(1, 10_000, 86_400_000)),
    write("db", long(3, 10_000, 86_400_000)),
    [],
  ],
];
const results = cases.map(([label, a, b, extra]) => {
  const costs: Cost[] = [];
  // Interleaved rounds, so a busy moment on a shared machine falls on every case alike.
  for (let round = 0; round < ROUNDS; round += 1) costs.push(compare(a, b, extra));
  return { label, cost: median(costs) };
});
/** The comparison alone, in this process: reading, validating and judging, without the CLI's start-up; undefined when refused. */
function inProcessMs(a: string, b: string, extra: readonly string[]): number | undefined {
  const read = (file: string) => {
    const reading = parseLoadRecord(JSON.parse(readFileSync(file, "utf8")));
    return reading.ok ? reading.record : undefined;
  };
  const options = { ...DEFAULT_COMPARE_OPTIONS, windowSeconds: extra === WINDOW_1S ? 1 : 60 };
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    const [base, candidate] = [read(a), read(b)];
    if (base === undefined || candidate === undefined) return undefined;
    compareLoad(base, candidate, options);
    times.push(performance.now() - started);
  }
  return times.sort((x, y) => x - y)[Math.floor(times.length / 2)] as number;
}
const judged = cases.map(([label, a, b, extra]) => ({ label, ms: inProcessMs(a, b, extra) }));
const ordinary = results[0]?.cost;
for (const { label, cost } of results) {
  const ratio = ordinary === undefined ? Number.NaN : cost.seconds / ordinary.seconds;
  console.log(
    `${label}: ${cost.seconds.toFixed(2)} s (${ratio.toFixed(2)}× the ordinary compare), peak RSS ${cost.peakMb.toFixed(0)} MB, exit ${cost.code}`,
  );
}
const base = judged[0]?.ms ?? Number.NaN;
for (const { label, ms } of judged) {
  console.log(
    `  in process, ${label}: ${ms === undefined ? "refused" : `${ms.toFixed(0)} ms (${(ms / base).toFixed(2)}× the ordinary one)`}`,
  );
}
rmSync(work, { recursive: true, force: true });
