import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { pipeline, Transform } from "node:stream";
import { createGunzip } from "node:zlib";

/**
 * The longest line a samples file may hold. k6 writes rows of well under 1 KiB (a metric, a time, a value and a few
 * tags), so a longer line is no k6 output; without the cap a file with no line break, or a small gzip that inflates
 * to one, would be held whole in memory.
 */
export const MAX_CSV_LINE_BYTES = 64 * 1024;

/** Fails the stream at the first line longer than `max` bytes, before it is buffered. */
function lineCap(file: string, max: number): Transform {
  let run = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let from = 0;
      for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) {
        run += at - from;
        if (run > max) break;
        run = 0;
        from = at + 1;
      }
      if (run <= max) run += chunk.length - from;
      if (run > max) {
        done(new Error(`${file} has a line longer than ${max / 1024} KiB: it is no k6 samples file`));
        return;
      }
      done(null, chunk);
    },
  });
}

/** A samples file (gzipped when its name ends in .gz) as lines, each at most `max` bytes; `close` releases it. */
export function openCsvLines(
  file: string,
  max = MAX_CSV_LINE_BYTES,
): { readonly lines: AsyncIterable<string> & { close(): void }; close(): void } {
  const raw = createReadStream(file);
  const cap = lineCap(file, max);
  // pipeline destroys every stage on any stage's error (a missing file, a damaged gzip, a line too long), so the
  // lines end with that error.
  const input = file.endsWith(".gz")
    ? pipeline(raw, createGunzip(), cap, () => {})
    : pipeline(raw, cap, () => {});
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  return {
    lines,
    close() {
      lines.close();
      raw.destroy();
    },
  };
}
