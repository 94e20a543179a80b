import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { open } from "node:fs/promises";
import { formatBytes } from "../core/index.ts";

/** What a file the user names may hold (config, ledger, credentials, a secret or token, a CA bundle): kilobytes. */
export const MAX_INPUT_FILE_BYTES = 4 * 1024 * 1024;
/**
 * What a run's record read back may hold (baseline.json, results.json, a k6 summary): a baseline's histograms take
 * some 10 MiB at worst (600 units, two endpoints, every 2 % bucket from 10 µs to 60 s filled).
 */
export const MAX_RECORD_FILE_BYTES = 16 * 1024 * 1024;

/** A file's text, or why it was not read, in words that follow the path: `no such file (ENOENT)`. */
export type InputFileReading =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly problem: string };

/** Non-blocking: opening a FIFO for reading would otherwise wait for a writer for ever. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const CHUNK_BYTES = 64 * 1024;

const WORDS: Readonly<Record<string, string>> = {
  ENOENT: "no such file",
  EACCES: "permission denied",
  EPERM: "the operation is not permitted",
  ENOTDIR: "a part of the path is not a directory",
  ENAMETOOLONG: "a name in the path is too long",
  ELOOP: "the path has a loop of symbolic links",
  ENXIO: "it is a socket or a device without a reader, not a regular file",
  EISDIR: "it is a directory, not a file",
};

function unreadable(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === undefined) return error instanceof Error ? error.message : String(error);
  return `${WORDS[code] ?? "cannot be read"} (${code})`;
}

/** Why a file that is not a regular one is refused: a FIFO or a device can block a run, or never end. */
function notRegular(info: Stats): string | undefined {
  if (info.isFile()) return undefined;
  if (info.isDirectory()) return WORDS.EISDIR;
  const kind = info.isFIFO()
    ? "a FIFO (named pipe)"
    : info.isCharacterDevice()
      ? "a character device"
      : info.isBlockDevice()
        ? "a block device"
        : info.isSocket()
          ? "a socket"
          : "of another kind";
  return `it is ${kind}, not a regular file (write the content to a file first)`;
}

function tooLarge(maxBytes: number): string {
  return `it holds more than ${formatBytes(maxBytes)}, more than any file the harness reads`;
}

/** Why the opened file is not read at all: not a regular file, or larger than the cap by its own account. */
function refusal(info: Stats, maxBytes: number): string | undefined {
  return notRegular(info) ?? (info.size > maxBytes ? tooLarge(maxBytes) : undefined);
}

/** The chunks read so far, counted against the cap as they come: a file that grows or lies about its size stays bounded. */
class BoundedText {
  readonly #chunks: Buffer[] = [];
  #total = 0;
  constructor(readonly maxBytes: number) {}

  get full(): boolean {
    return this.#total > this.maxBytes;
  }

  add(buffer: Buffer, bytesRead: number): void {
    this.#chunks.push(buffer.subarray(0, bytesRead));
    this.#total += bytesRead;
  }

  reading(): InputFileReading {
    if (this.full) return { ok: false, problem: tooLarge(this.maxBytes) };
    return { ok: true, text: Buffer.concat(this.#chunks, this.#total).toString("utf8") };
  }
}

/**
 * Reads a file the user named, bounded: a regular file only (a FIFO would block the run, /dev/zero never end) and at
 * most `maxBytes`. Never throws for a file problem: each caller says it in its own sentence, as a usage error.
 */
export async function readInputFile(
  file: string,
  maxBytes: number = MAX_INPUT_FILE_BYTES,
): Promise<InputFileReading> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (error) {
    return { ok: false, problem: unreadable(error) };
  }
  try {
    const refused = refusal(await handle.stat(), maxBytes);
    if (refused !== undefined) return { ok: false, problem: refused };
    const text = new BoundedText(maxBytes);
    while (!text.full) {
      const { bytesRead, buffer } = await handle.read(Buffer.alloc(CHUNK_BYTES), 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      text.add(buffer, bytesRead);
    }
    return text.reading();
  } catch (error) {
    return { ok: false, problem: unreadable(error) };
  } finally {
    await handle.close();
  }
}

/** readInputFile for the one reader that must stay synchronous (the CA bundle, read where TLS options are built). */
export function readInputFileSync(file: string, maxBytes: number = MAX_INPUT_FILE_BYTES): InputFileReading {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (error) {
    return { ok: false, problem: unreadable(error) };
  }
  try {
    const refused = refusal(fstatSync(fd), maxBytes);
    if (refused !== undefined) return { ok: false, problem: refused };
    const text = new BoundedText(maxBytes);
    while (!text.full) {
      const buffer = Buffer.alloc(CHUNK_BYTES);
      const bytesRead = readSync(fd, buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      text.add(buffer, bytesRead);
    }
    return text.reading();
  } catch (error) {
    return { ok: false, problem: unreadable(error) };
  } finally {
    closeSync(fd);
  }
}
