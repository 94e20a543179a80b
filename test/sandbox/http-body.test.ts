import { EventEmitter } from "node:events";
import type { IncomingMessage } from "node:http";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { BodyResult } from "../../sandbox/http-body.ts";
import { DRAIN_LIMIT_BYTES, DRAIN_TIME_MS, drainLimit, readBody } from "../../sandbox/http-body.ts";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A request whose body the test feeds by hand: readBody only listens to its events. */
function request(headers: Record<string, string> = {}) {
  return Object.assign(new EventEmitter(), { headers }) as unknown as IncomingMessage & EventEmitter;
}

function settled(promise: Promise<BodyResult>) {
  let result: BodyResult | undefined;
  void promise.then((value) => {
    result = value;
  });
  return () => result;
}

describe("readBody drains an oversized body within bounds", () => {
  it("bounds the drain at 64 MiB, or four times a larger cap", () => {
    expect(drainLimit(64 * 1024)).toBe(DRAIN_LIMIT_BYTES);
    expect(DRAIN_LIMIT_BYTES).toBe(64 * 1024 * 1024);
    expect(drainLimit(32 * 1024 * 1024)).toBe(128 * 1024 * 1024);
  });

  it("reads on to the end of a body past the cap, then says too large", async () => {
    const req = request();
    const result = settled(readBody(req, 10));
    req.emit("data", Buffer.alloc(11));
    req.emit("data", Buffer.alloc(1024));
    await vi.advanceTimersByTimeAsync(0);
    expect(result()).toBeUndefined();
    req.emit("end");
    await vi.advanceTimersByTimeAsync(0);
    expect(result()).toEqual({ ok: false, reason: "too-large" });
  });

  it("gives a sender that drains too slowly DRAIN_TIME_MS from passing the cap, then answers", async () => {
    const req = request();
    const result = settled(readBody(req, 10));
    req.emit("data", Buffer.alloc(11));
    await vi.advanceTimersByTimeAsync(DRAIN_TIME_MS - 1);
    req.emit("data", Buffer.alloc(1));
    expect(result()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(result()).toEqual({ ok: false, reason: "too-large" });
    expect(req.listenerCount("data")).toBe(0);
  });

  it("starts the clock at once for a declared length past the cap", async () => {
    const req = request({ "content-length": "100" });
    const result = settled(readBody(req, 10));
    await vi.advanceTimersByTimeAsync(DRAIN_TIME_MS);
    expect(result()).toEqual({ ok: false, reason: "too-large" });
  });

  it("keeps no timer for a body within the cap", async () => {
    const req = request();
    const result = settled(readBody(req, 10));
    req.emit("data", Buffer.from("hello"));
    req.emit("end");
    await vi.advanceTimersByTimeAsync(0);
    expect(result()).toEqual({ ok: true, body: Buffer.from("hello") });
    expect(vi.getTimerCount()).toBe(0);
  });
});
