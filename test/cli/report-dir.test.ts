import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { claimReportDir, createReportDir, RUN_CLAIM_FILE } from "../../cli/report-dir.ts";
import { UsageError } from "../../core/index.ts";
import { describe, expect, it } from "../support/fixtures.ts";

async function refusal(run: Promise<unknown>): Promise<UsageError> {
  const error: unknown = await run.then(
    () => new Error("accepted"),
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof UsageError)) throw error;
  return error;
}

describe("claimReportDir", () => {
  it("makes a new directory with its parents and claims it with a JSON note of the command", async ({
    tmpDir,
  }) => {
    const dir = path.join(tmpDir, "a", "b", "reports");
    const before = Date.now();
    expect(await claimReportDir(dir, "--report-dir", "contract")).toBe(dir);
    expect(await readdir(dir)).toEqual([RUN_CLAIM_FILE]);
    const claim = JSON.parse(await readFile(path.join(dir, RUN_CLAIM_FILE), "utf8")) as {
      command: string;
      pid: number;
      startedAt: string;
    };
    expect(claim.command).toBe("contract");
    expect(claim.pid).toBe(process.pid);
    expect(Date.parse(claim.startedAt)).toBeGreaterThanOrEqual(before - 1000);
  });

  it("claims an existing empty directory and returns its absolute path", async ({ tmpDir }) => {
    const relative = path.relative(process.cwd(), tmpDir);
    expect(await claimReportDir(relative, "--report-dir", "load")).toBe(tmpDir);
    expect(await readdir(tmpDir)).toEqual([RUN_CLAIM_FILE]);
  });

  it("refuses a directory another run claimed, leaving its claim as it was", async ({ tmpDir }) => {
    await claimReportDir(tmpDir, "--report-dir", "contract");
    const first = await readFile(path.join(tmpDir, RUN_CLAIM_FILE), "utf8");
    const error = await refusal(claimReportDir(tmpDir, "--report-dir", "load"));
    expect(error).toMatchObject({ code: "invalid-config", command: "load" });
    expect(error.message).toBe(
      `--report-dir ${tmpDir} holds another run's reports (its ${RUN_CLAIM_FILE}): give a new or empty directory, so two runs never mix and no file is overwritten`,
    );
    expect(await readFile(path.join(tmpDir, RUN_CLAIM_FILE), "utf8")).toBe(first);
  });

  it("of two runs claiming one directory at once, exactly one wins", async ({ tmpDir }) => {
    const results = await Promise.allSettled([
      claimReportDir(tmpDir, "--report-dir", "contract"),
      claimReportDir(tmpDir, "--report-dir", "contract"),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(await readdir(tmpDir)).toEqual([RUN_CLAIM_FILE]);
  });

  it("refuses a directory holding anything else and leaves it exactly as it was", async ({ tmpDir }) => {
    await writeFile(path.join(tmpDir, "notes.txt"), "mine");
    const error = await refusal(claimReportDir(tmpDir, "--out", "load"));
    expect(error.message).toMatch(/^--out \S+ exists and is not empty: give a new or empty directory/);
    expect(await readdir(tmpDir)).toEqual(["notes.txt"]);
    expect(await readFile(path.join(tmpDir, "notes.txt"), "utf8")).toBe("mine");
  });

  it("refuses a path through a file as unwritable, with the reason and its code", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "file");
    await writeFile(file, "");
    const error = await refusal(claimReportDir(path.join(file, "reports"), "--report-dir", "contract"));
    expect(error.code).toBe("unwritable-path");
    expect(error.message).toBe(
      `--report-dir ${path.join(file, "reports")} cannot be written to: a part of the path is not a directory (ENOTDIR)`,
    );
    const itself = await refusal(claimReportDir(file, "--report-dir", "contract"));
    expect(itself.message).toMatch(
      /cannot be written to: a part of the path is not a directory \(ENOTDIR\)$/,
    );
  });
});

describe("createReportDir", () => {
  it("creates and claims the named directory under the parent, making the parent", async ({ tmpDir }) => {
    const parent = path.join(tmpDir, "reports", "contract");
    const dir = await createReportDir(parent, "20261122T030405Z", "contract");
    expect(dir).toBe(path.join(parent, "20261122T030405Z"));
    expect(await readdir(dir)).toEqual([RUN_CLAIM_FILE]);
    expect(await readdir(parent)).toEqual(["20261122T030405Z"]);
  });

  it("gives a second and third run of the same name a suffix instead of sharing a directory", async ({
    tmpDir,
  }) => {
    const names = await Promise.all([1, 2, 3].map(() => createReportDir(tmpDir, "run", "load")));
    expect(names.map((dir) => path.basename(dir)).sort()).toEqual(["run", "run-2", "run-3"]);
    for (const dir of names) expect(await readdir(dir)).toEqual([RUN_CLAIM_FILE]);
  });

  it("does not reuse a directory of that name that exists already, even empty", async ({ tmpDir }) => {
    await mkdir(path.join(tmpDir, "run"));
    expect(path.basename(await createReportDir(tmpDir, "run", "load"))).toBe("run-2");
    expect(await readdir(path.join(tmpDir, "run"))).toEqual([]);
  });

  it("refuses a parent that cannot be written, naming it as the default report directory", async ({
    tmpDir,
  }) => {
    const file = path.join(tmpDir, "file");
    await writeFile(file, "");
    const error = await refusal(createReportDir(path.join(file, "sub"), "run", "contract"));
    expect(error).toMatchObject({ code: "unwritable-path", command: "contract" });
    expect(error.message).toMatch(
      /^the default report directory \S+sub cannot be written to: .*\(ENOTDIR\)$/,
    );
  });
});
