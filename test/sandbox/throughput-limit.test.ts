import { describe, expect } from "vitest";
import { resolveOptions } from "../../sandbox/options.ts";
import { ThroughputLimit } from "../../sandbox/throughput-limit.ts";
import { test, validEvent } from "./support.ts";

describe("ThroughputLimit", () => {
  test("admits events under the limit without a wait", () => {
    const limit = new ThroughputLimit(10, 1000);
    // 10/s allows one event every 100 ms: events 100 ms apart never queue.
    for (let i = 0; i < 50; i += 1) expect(limit.admit(i * 100)).toBe(0);
  });

  test("queues events past the limit, each one interval after the one before", () => {
    const limit = new ThroughputLimit(10, 10_000);
    // Five events at once: served at 0, 100, 200, 300 and 400 ms.
    expect([0, 0, 0, 0, 0].map((t) => limit.admit(t))).toEqual([0, 100, 200, 300, 400]);
    // One arriving at 250 ms waits for the queue to drain: it starts at 500 ms.
    expect(limit.admit(250)).toBe(250);
  });

  test("lets the wait grow for as long as arrivals outpace the limit", () => {
    const limit = new ThroughputLimit(100, 60_000);
    // 200 events/s against a limit of 100/s: each second adds a second of queue.
    const waits: number[] = [];
    for (let i = 0; i < 400; i += 1) waits.push(limit.admit(i * 5) as number);
    expect(waits[199]).toBeCloseTo(995, 6);
    expect(waits[399]).toBeCloseTo(1995, 6);
    expect(waits.every((w, i) => i === 0 || w >= (waits[i - 1] as number))).toBe(true);
  });

  test("refuses an event that would wait past the queue limit, and keeps no place for it", () => {
    const limit = new ThroughputLimit(10, 250);
    expect([0, 0, 0].map((t) => limit.admit(t))).toEqual([0, 100, 200]);
    expect(limit.admit(0)).toBeUndefined();
    expect(limit.admit(0)).toBeUndefined();
    // The refused ones took no slot: at 100 ms the next slot is still 300 ms.
    expect(limit.admit(100)).toBe(200);
  });

  test("is checked as a sandbox option: a whole number from 1, a queue limit from 0", () => {
    expect(resolveOptions({}).throughputLimit).toBeUndefined();
    expect(resolveOptions({ throughputLimit: 50 }).throughputLimit).toBe(50);
    expect(resolveOptions({}).queueLimitMs).toBe(1000);
    expect(() => resolveOptions({ throughputLimit: 0 })).toThrow(
      /throughputLimit must be a whole number from 1/,
    );
    expect(() => resolveOptions({ throughputLimit: 2.5 })).toThrow(/throughputLimit/);
    expect(() => resolveOptions({ queueLimitMs: -1 })).toThrow(/queueLimitMs must be a whole number from 0/);
  });
});

describe("a sandbox with a throughput limit", () => {
  test("queues events past its limit and refuses those its queue cannot hold", async ({ testSandbox }) => {
    const t = await testSandbox({ throughputLimit: 20, queueLimitMs: 500 });
    const token = await t.token();
    const started = performance.now();
    // 30 events at once against 20/s with half a second of queue: about 11 fit (0, 50, …, 500 ms), the rest are refused.
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        t.postEvent(token, validEvent()).then((answer) => ({ answer, ms: performance.now() - started })),
      ),
    );
    const accepted = answers.filter((a) => a.answer.status === 202);
    const refused = answers.filter((a) => a.answer.status === 503);
    expect(accepted.length + refused.length).toBe(30);
    expect(accepted.length).toBeGreaterThanOrEqual(11);
    expect(refused.length).toBeGreaterThanOrEqual(10);
    expect(refused.every((a) => a.answer.headers["retry-after"] === "1")).toBe(true);
    expect(t.sandbox.stats().refusedOverLimit).toBe(refused.length);
    // The last accepted event waited its turn: about half a second behind the first.
    const times = accepted.map((a) => a.ms).sort((a, b) => a - b);
    expect((times.at(-1) as number) - (times[0] as number)).toBeGreaterThanOrEqual(400);
    // Token requests are not events: the limit leaves them alone.
    await expect(t.token()).resolves.toEqual(expect.any(String));
  });
});
