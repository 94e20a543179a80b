/** Chunks of about this many UTF-16 units keep write calls few without holding much in memory. */
export const NDJSON_CHUNK_SIZE = 64 * 1024;

/** One NDJSON line: JSON.stringify never emits a raw newline, so each value stays on its own line. */
export function toNdjsonLine(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

/**
 * Joins serialised values (without their newline) into newline-terminated chunks of about `chunkSize`, lazily,
 * so a caller can write millions of lines with one write per chunk and stop at any point.
 */
export function* ndjsonChunks(
  lines: Iterable<string>,
  chunkSize = NDJSON_CHUNK_SIZE,
): Generator<string, void, undefined> {
  let chunk = "";
  for (const line of lines) {
    chunk += `${line}\n`;
    if (chunk.length >= chunkSize) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk.length > 0) yield chunk;
}
