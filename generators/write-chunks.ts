import { setImmediate as nextTurn } from "node:timers/promises";

/** How a write of chunks to a stream ended. */
export type WriteOutcome =
  /** Every chunk was written and its write completed. */
  | { readonly status: "done"; readonly chunks: number }
  /** The reader went away (EPIPE, e.g. `| head -1`): a normal way for a pipe to end, not a failure. */
  | { readonly status: "closed"; readonly chunks: number }
  /** The signal was aborted before every chunk was written. */
  | { readonly status: "aborted"; readonly chunks: number };

/** Chunks written between turns of the event loop, so 'error' events and aborts get through even when writes are synchronous. */
const YIELD_EVERY = 64;

/** Error codes that mean the reader is gone rather than that something broke. */
const READER_GONE = new Set(["EPIPE", "ERR_STREAM_DESTROYED", "ECONNRESET"]);

/**
 * Writes chunks to a stream, pulling the next chunk only when the stream can take it (back-pressure), so a huge
 * lazy iterable never piles up in memory. A reader that goes away ends the write quietly; other errors are thrown.
 */
export async function writeChunks(
  stream: NodeJS.WritableStream,
  chunks: Iterable<string>,
  signal?: AbortSignal,
): Promise<WriteOutcome> {
  let failure: Error | undefined;
  let drained = false;
  let pending = 0;
  let written = 0;
  let wake: (() => void) | undefined;
  const onError = (error: Error) => {
    failure ??= error;
    wake?.();
  };
  const onDrain = () => {
    drained = true;
    wake?.();
  };
  const onWake = () => wake?.();
  const onWritten = () => {
    pending -= 1;
    wake?.();
  };
  const stopped = () => failure !== undefined || isDestroyed(stream) || signal?.aborted === true;
  const until = async (condition: () => boolean) => {
    while (!condition() && !stopped()) {
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
  };

  stream.on("error", onError);
  stream.on("drain", onDrain);
  stream.on("close", onWake);
  signal?.addEventListener("abort", onWake);
  try {
    for (const chunk of chunks) {
      if (stopped()) break;
      pending += 1;
      written += 1;
      drained = false;
      if (!stream.write(chunk, onWritten)) await until(() => drained);
      else if (written % YIELD_EVERY === 0) await nextTurn();
    }
    // Waiting for every write callback surfaces a late EPIPE or disk error before the outcome is reported.
    await until(() => pending === 0);
    // A destroyed stream emits its error on a later tick: let it arrive so the real cause is reported.
    if (isDestroyed(stream) && failure === undefined) await nextTurn();
  } finally {
    stream.off("drain", onDrain);
    stream.off("close", onWake);
    signal?.removeEventListener("abort", onWake);
    // Until every write has completed the stream may still emit 'error'; the listener stays so it cannot crash the process.
    if (pending === 0 && failure === undefined && !isDestroyed(stream)) stream.off("error", onError);
  }
  if (failure !== undefined) {
    if (READER_GONE.has((failure as NodeJS.ErrnoException).code ?? ""))
      return { status: "closed", chunks: written };
    throw failure;
  }
  if (isDestroyed(stream)) return { status: "closed", chunks: written };
  if (signal?.aborted) return { status: "aborted", chunks: written };
  return { status: "done", chunks: written };
}

function isDestroyed(stream: NodeJS.WritableStream): boolean {
  return "destroyed" in stream && stream.destroyed === true;
}
