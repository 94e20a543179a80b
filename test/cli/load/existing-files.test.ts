import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { existingFiles } from "../../../cli/load/existing-files.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

describe("existingFiles", () => {
  it("keeps the names that are files, in the order given", async ({ tmpDir }) => {
    await writeFile(path.join(tmpDir, "summary.md"), "x");
    await writeFile(path.join(tmpDir, "junit.xml"), "x");
    expect(await existingFiles(tmpDir, ["junit.xml", "missing.html", "summary.md"])).toEqual([
      "junit.xml",
      "summary.md",
    ]);
  });

  it("leaves out a directory of that name", async ({ tmpDir }) => {
    await mkdir(path.join(tmpDir, "report.html"));
    expect(await existingFiles(tmpDir, ["report.html"])).toEqual([]);
  });

  it("finds nothing in a directory that does not exist, and nothing for no names", async ({ tmpDir }) => {
    expect(await existingFiles(path.join(tmpDir, "absent"), ["summary.md"])).toEqual([]);
    expect(await existingFiles(tmpDir, [])).toEqual([]);
  });
});
