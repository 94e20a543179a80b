import { mkdir, readdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { makeDirectory } from "../../cli/make-directory.ts";
import { describe, expect, it } from "../support/fixtures.ts";

describe("makeDirectory", () => {
  it("makes a directory and every missing parent", async ({ tmpDir }) => {
    const dir = path.join(tmpDir, "a", "b", "c");
    await makeDirectory(dir);
    expect((await stat(dir)).isDirectory()).toBe(true);
    expect(await readdir(path.join(tmpDir, "a"))).toEqual(["b"]);
  });

  it("accepts a directory that exists, leaving what it holds", async ({ tmpDir }) => {
    await writeFile(path.join(tmpDir, "kept"), "x");
    await makeDirectory(tmpDir);
    await makeDirectory(`${tmpDir}${path.sep}`);
    expect(await readdir(tmpDir)).toEqual(["kept"]);
  });

  it("resolves a relative path from the working directory", async ({ tmpDir }) => {
    const relative = path.relative(process.cwd(), path.join(tmpDir, "rel", "dir"));
    await makeDirectory(relative);
    expect((await stat(path.join(tmpDir, "rel", "dir"))).isDirectory()).toBe(true);
  });

  it("refuses a path whose existing part is a file with ENOTDIR, making nothing", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "file");
    await writeFile(file, "");
    await expect(makeDirectory(file)).rejects.toMatchObject({ code: "ENOTDIR", path: file });
    await expect(makeDirectory(path.join(file, "sub", "deeper"))).rejects.toMatchObject({ code: "ENOTDIR" });
    expect(await readdir(tmpDir)).toEqual(["file"]);
  });

  it("takes directories another caller makes at the same time", async ({ tmpDir }) => {
    const dir = path.join(tmpDir, "x", "y", "z");
    await Promise.all([
      makeDirectory(dir),
      makeDirectory(dir),
      mkdir(path.join(tmpDir, "x", "y"), { recursive: true }),
    ]);
    expect((await stat(dir)).isDirectory()).toBe(true);
  });

  it("fails in bounded time where the file system takes no new entries, as /proc does", async () => {
    await expect(makeDirectory("/proc/event-harness-test/reports")).rejects.toMatchObject({ code: "ENOENT" });
  });
});
