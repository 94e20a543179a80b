import type { IncomingMessage } from "node:http";

export type BodyResult =
  | { readonly ok: true; readonly body: Buffer }
  | { readonly ok: false; readonly reason: "too-large" | "aborted" };

const TOO_LARGE: BodyResult = { ok: false, reason: "too-large" };
/**
 * An oversized body is read and discarded before the 413 goes out: a server that closes a connection with unread
 * data makes the kernel reset it, and a client still writing then sees EPIPE, not the 413. Discarded bytes cost no
 * memory, only the time to read them (tens of milliseconds on loopback), so the bound is generous: four times the
 * 16 MiB a client was seen sending, or four times the cap when that is larger. A longer body gets the 413 at once
 * and the connection closed: such a client may see a reset instead.
 */
export const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;
/** How long a body may take to drain once it passed the cap (the harness's default request timeout): a sender that slow gets the 413 and the close then. */
export const DRAIN_TIME_MS = 10_000;

/** The most of an oversized body read and discarded for a request capped at `limit` bytes. */
export function drainLimit(limit: number): number {
  return Math.max(DRAIN_LIMIT_BYTES, 4 * limit);
}

const ABORTED: BodyResult = { ok: false, reason: "aborted" };
const EMPTY = Buffer.alloc(0);

interface ReaderState {
  readonly limit: number;
  readonly resolve: (result: BodyResult) => void;
  first: Buffer | undefined;
  chunks: Buffer[] | undefined;
  size: number;
  /** Past the limit: the rest is only counted and dropped until the body ends (or drainLimit, or DRAIN_TIME_MS). */
  draining: boolean;
  drainTimer: NodeJS.Timeout | undefined;
}

/** Where a request's read state lives while its body arrives. */
const STATE = Symbol("body-reader");
type ReadableRequest = IncomingMessage & { [STATE]?: ReaderState | undefined };

/*
 * The listeners are module-level functions that find their state on the request (`this`): per-request closures
 * would each cost a `__name` call under tsx, measurable on the hot path.
 */
function onData(this: ReadableRequest, chunk: Buffer): void {
  const state = this[STATE];
  if (state === undefined) return;
  state.size += chunk.length;
  if (state.draining || state.size > state.limit) {
    state.first = undefined;
    state.chunks = undefined;
    if (!state.draining) startDraining(this, state);
    if (state.size > drainLimit(state.limit)) finish(this, state, TOO_LARGE);
    return;
  }
  // Most bodies arrive in one chunk: keep it without copying.
  if (state.first === undefined) {
    state.first = chunk;
    return;
  }
  if (state.chunks === undefined) state.chunks = [state.first];
  state.chunks.push(chunk);
}

function onEnd(this: ReadableRequest): void {
  const state = this[STATE];
  if (state === undefined) return;
  if (state.draining) {
    finish(this, state, TOO_LARGE);
    return;
  }
  const body = state.chunks ? Buffer.concat(state.chunks, state.size) : (state.first ?? EMPTY);
  finish(this, state, { ok: true, body });
}

function onAbort(this: ReadableRequest): void {
  const state = this[STATE];
  if (state !== undefined) finish(this, state, ABORTED);
}

/** From here on the body is only counted and dropped, for DRAIN_TIME_MS at most. */
function startDraining(req: ReadableRequest, state: ReaderState): void {
  state.draining = true;
  state.drainTimer = setTimeout(() => {
    if (req[STATE] === state) finish(req, state, TOO_LARGE);
  }, DRAIN_TIME_MS);
  state.drainTimer.unref();
}

function finish(req: ReadableRequest, state: ReaderState, result: BodyResult): void {
  req[STATE] = undefined;
  clearTimeout(state.drainTimer);
  // Without a data listener Node discards whatever else arrives, so a huge upload is never buffered.
  req.off("data", onData);
  req.off("end", onEnd);
  req.off("error", onAbort);
  req.off("close", onAbort);
  state.resolve(result);
}

/**
 * Reads a request body of at most `limit` bytes. Past the limit it stops collecting but reads on, discarding, to
 * the end of the body (at most drainLimit(limit) bytes, for DRAIN_TIME_MS), so the 413 reaches any client.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const declared = req.headers["content-length"];
  if (declared !== undefined && Number(declared) > drainLimit(limit)) return Promise.resolve(TOO_LARGE);
  return new Promise((resolve) => {
    const readable = req as ReadableRequest;
    const state: ReaderState = {
      limit,
      resolve,
      first: undefined,
      chunks: undefined,
      size: 0,
      draining: false,
      drainTimer: undefined,
    };
    readable[STATE] = state;
    if (declared !== undefined && Number(declared) > limit) startDraining(readable, state);
    readable.on("data", onData);
    readable.on("end", onEnd);
    readable.on("error", onAbort);
    readable.on("close", onAbort);
  });
}

/** The lower-cased media type of a Content-Type header, without parameters; "" when absent. */
export function mediaType(header: string | undefined): string {
  if (header === undefined) return "";
  const semicolon = header.indexOf(";");
  return (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
}

/** The charset parameter of a Content-Type header, lower-cased; undefined when not given. */
export function charset(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(header);
  return match?.[1]?.toLowerCase();
}

/** True for application/json and any +json type, in UTF-8 (RFC 8259 §8.1 allows nothing else). */
export function isJsonContentType(header: string | undefined): boolean {
  // The common exact value needs no parsing.
  if (header === "application/json") return true;
  const type = mediaType(header);
  if (type !== "application/json" && !(type.startsWith("application/") && type.endsWith("+json")))
    return false;
  const set = charset(header);
  return set === undefined || set === "utf-8" || set === "utf8";
}
