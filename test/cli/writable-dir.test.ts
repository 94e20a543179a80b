import { readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { prepareWritableDir } from "../../cli/writable-dir.ts";
import { UsageError } from "../../core/index.ts";
import { describe, expect, it } from "../support/fixtures.ts";

describe("prepareWritableDir", () => {
  it("makes the directory, leaves no probe file in it, and returns its absolute path", async ({ tmpDir }) => {
    const dir = path.join(tmpDir, "reports", "load");
    expect(await prepareWritableDir(path.relative(process.cwd(), dir), "--report-dir", "load")).toBe(dir);
    expect(await readdir(dir)).toEqual([]);
  });

  it("keeps what a directory that exists already holds", async ({ tmpDir }) => {
    await writeFile(path.join(tmpDir, "mine.txt"), "x");
    await prepareWritableDir(tmpDir, "--report-dir", "load");
    expect(await readdir(tmpDir)).toEqual(["mine.txt"]);
  });

  it("refuses a path through a file as unwritable, naming the option, the path and why", async ({
    tmpDir,
  }) => {
    const file = path.join(tmpDir, "file");
    await writeFile(file, "");
    const error: unknown = await prepareWritableDir(path.join(file, "sub"), "--out", "sandbox").catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({
      code: "unwritable-path",
      command: "sandbox",
      message: `--out ${path.join(file, "sub")} cannot be written to: a part of the path is not a directory (ENOTDIR)`,
    });
  });

  it("refuses a directory of a file system that takes no new entries", async () => {
    await expect(
      prepareWritableDir("/proc/event-harness-test", "--report-dir", "load"),
    ).rejects.toMatchObject({
      code: "unwritable-path",
      message: expect.stringMatching(/\((ENOENT|EACCES|EPERM)\)$/),
    });
  });
});
