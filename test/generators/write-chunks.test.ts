import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { writeChunks } from "../../generators/index.ts";

/** A stream that accepts one chunk at a time and finishes each on a later turn, like a slow pipe. */
function slowSink(received: string[], options: { failAfter?: number; error?: NodeJS.ErrnoException } = {}) {
  return new Writable({
    highWaterMark: 16,
    decodeStrings: false,
    write(chunk: string, _encoding, callback) {
      setImmediate(() => {
        if (options.failAfter !== undefined && received.length >= options.failAfter) {
          callback(options.error ?? new Error("boom"));
          return;
        }
        received.push(chunk);
        callback();
      });
    },
  });
}

function* counted(total: number, state: { pulled: number }) {
  for (let i = 0; i < total; i++) {
    state.pulled += 1;
    yield `chunk-${i}-${"x".repeat(32)}\n`;
  }
}

describe("writeChunks", () => {
  it("writes every chunk in order and reports done", async () => {
    const received: string[] = [];
    const state = { pulled: 0 };
    const outcome = await writeChunks(slowSink(received), counted(50, state));
    expect(outcome).toEqual({ status: "done", chunks: 50 });
    expect(received).toHaveLength(50);
    expect(received[49]).toMatch(/^chunk-49-/);
  });

  it("pulls a chunk only when the stream has room (back-pressure)", async () => {
    const received: string[] = [];
    const state = { pulled: 0 };
    const sink = slowSink(received);
    let maxAhead = 0;
    const originalWrite = sink.write.bind(sink);
    sink.write = ((chunk: string, callback?: (error?: Error | null) => void) => {
      maxAhead = Math.max(maxAhead, state.pulled - received.length);
      return originalWrite(chunk, callback);
    }) as typeof sink.write;
    await writeChunks(sink, counted(200, state));
    expect(maxAhead).toBeLessThanOrEqual(2);
  });

  it("ends quietly when the reader goes away (EPIPE), without pulling the rest", async () => {
    const received: string[] = [];
    const state = { pulled: 0 };
    const epipe = Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
    const outcome = await writeChunks(
      slowSink(received, { failAfter: 3, error: epipe }),
      counted(1_000_000, state),
    );
    expect(outcome.status).toBe("closed");
    expect(state.pulled).toBeLessThan(10);
  });

  it("ends quietly when the stream is destroyed under it", async () => {
    const stream = new PassThrough();
    const state = { pulled: 0 };
    stream.once("data", () => stream.destroy());
    const outcome = await writeChunks(stream, counted(1_000_000, state));
    expect(outcome.status).toBe("closed");
    expect(state.pulled).toBeLessThan(1000);
  });

  it("throws any other write error", async () => {
    const state = { pulled: 0 };
    const full = Object.assign(new Error("no space left on device"), { code: "ENOSPC" });
    await expect(
      writeChunks(slowSink([], { failAfter: 2, error: full }), counted(100, state)),
    ).rejects.toThrow("no space left");
  });

  it("stops when the signal aborts", async () => {
    const controller = new AbortController();
    const received: string[] = [];
    const state = { pulled: 0 };
    const sink = slowSink(received);
    sink.on("drain", () => {
      if (received.length >= 5) controller.abort();
    });
    const outcome = await writeChunks(sink, counted(1_000_000, state), controller.signal);
    expect(outcome.status).toBe("aborted");
    expect(state.pulled).toBeLessThan(20);
  });

  it("leaves no listeners behind on a healthy stream", async () => {
    const stream = new PassThrough();
    stream.resume();
    await writeChunks(stream, ["a\n", "b\n"]);
    expect(stream.listenerCount("error")).toBe(0);
    expect(stream.listenerCount("drain")).toBe(0);
    expect(stream.listenerCount("close")).toBe(0);
  });
});
