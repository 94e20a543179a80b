import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll } from "vitest";
import { MAX_INPUT_FILE_BYTES, readInputFile, readInputFileSync } from "../../transport/index.ts";
import { describe, expect, it } from "../support/fixtures.ts";
import {
  HOSTILE_FILE_KINDS,
  HOSTILE_FILE_WORDS,
  hostileFile,
  releaseFifo,
} from "../support/hostile-files.ts";

const fifos: string[] = [];
afterAll(() => {
  for (const fifo of fifos) releaseFifo(fifo);
});

const readers = [
  ["readInputFile", readInputFile],
  ["readInputFileSync", async (file: string, max?: number) => readInputFileSync(file, max)],
] as const;

describe.each(readers)("%s", (name, read) => {
  it("reads a regular file whole, up to the cap exactly", async ({ tmpDir: dir }) => {
    const file = path.join(dir, `${name}-exact`);
    await writeFile(file, "é".repeat(MAX_INPUT_FILE_BYTES / 2));
    const reading = await read(file);
    expect(reading.ok && reading.text.length).toBe(MAX_INPUT_FILE_BYTES / 2);
  });

  it("refuses one byte past the cap", async ({ tmpDir: dir }) => {
    const file = path.join(dir, `${name}-over`);
    await writeFile(file, "x".repeat(101));
    expect(await read(file, 100)).toEqual({
      ok: false,
      problem: "it holds more than 100 bytes, more than any file the harness reads",
    });
  });

  it("counts what it reads, not what the file says: /proc files say 0 bytes", async () => {
    const reading = await read("/proc/self/status", 64);
    expect(reading).toEqual({ ok: false, problem: expect.stringMatching(/more than 64 bytes/) });
    const whole = await read("/proc/self/status");
    expect(whole.ok && whole.text).toMatch(/^Name:/);
  });

  it.for(HOSTILE_FILE_KINDS)("refuses a %s at once, without reading it", async (kind, { tmpDir: dir }) => {
    const file = await hostileFile(dir, kind, `${name}-${kind}`);
    if (kind === "fifo") fifos.push(file);
    const reading = await read(file);
    expect(reading.ok).toBe(false);
    expect(reading.ok || reading.problem).toMatch(HOSTILE_FILE_WORDS[kind]);
  });

  it("says why a file cannot be opened, with the system's code", async ({ tmpDir: dir }) => {
    expect(await read(path.join(dir, "absent"))).toEqual({ ok: false, problem: "no such file (ENOENT)" });
  });
});
