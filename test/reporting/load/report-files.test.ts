import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { instanceDirs } from "../../../reporting/load/report-files.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

describe("instanceDirs", () => {
  it("lists the instance-N entries of a report directory only", async ({ tmpDir }) => {
    for (const name of ["instance-1", "instance-12", "instance-x", "instance-", "my-instance-2", "steps"]) {
      await mkdir(path.join(tmpDir, name));
    }
    await writeFile(path.join(tmpDir, "summary.json"), "{}");
    expect((await instanceDirs(tmpDir)).sort()).toEqual([
      path.join(tmpDir, "instance-1"),
      path.join(tmpDir, "instance-12"),
    ]);
  });

  it("finds none in a directory that does not exist", async ({ tmpDir }) => {
    expect(await instanceDirs(path.join(tmpDir, "missing"))).toEqual([]);
  });
});
