import path from "node:path";
import { PassThrough } from "node:stream";
import { k6Command } from "../../../cli/commands/k6.ts";
import { UsageError } from "../../../core/index.ts";
import {
  ensureK6,
  findK6,
  pinnedK6Version,
  recordBuildSource,
} from "../../../k6-tooling/binary/k6-binary.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { runInProcess } from "../../support/run-in-process.ts";
import { versionOnlyK6 } from "../../support/version-only-k6.ts";

function run(args: readonly string[], env: NodeJS.ProcessEnv) {
  return runInProcess(k6Command, args, env);
}

describe("k6 resolution", () => {
  it("reads the pinned version from tools/k6/go.mod", async () => {
    expect(await pinnedK6Version()).toMatch(/^v2\.\d+\.\d+/);
  });

  it("uses K6_BIN first and says where it came from", async ({ tmpDir: dir }) => {
    const k6 = await versionOnlyK6(path.join(dir, "explicit"), "v2.9.9");
    const result = await run([], { K6_BIN: k6, PATH: "" });
    expect(result).toMatchObject({ code: 0 });
    expect(result.stdout).toContain("k6 v2.9.9 (from K6_BIN)");
    expect((await run(["--print-path"], { K6_BIN: k6, PATH: "" })).stdout).toBe(`${k6}\n`);
  });

  it("tells the harness's own k6 (with k6/x/harness) from one the user brings, and says what that costs", async ({
    tmpDir: dir,
  }) => {
    const own = await versionOnlyK6(path.join(dir, "own"), "v2.2.0", true);
    expect((await findK6({ K6_BIN: own, PATH: "" })).binary).toEqual({
      path: own,
      version: "v2.2.0",
      source: "K6_BIN",
      harnessExtension: true,
      samplesOutput: true,
    });
    expect((await run([], { K6_BIN: own, PATH: "" })).stdout).not.toContain("not capped");
    const theirs = await versionOnlyK6(path.join(dir, "theirs"), "v2.2.0");
    expect((await findK6({ K6_BIN: theirs, PATH: "" })).binary?.harnessExtension).toBe(false);
    const result = await run([], { K6_BIN: theirs, PATH: "" });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "without k6/x/harness: response bodies are not capped; memory per response is bounded only by --timeout",
    );
    expect(result.stdout).toContain(
      "without the output harness-samples: each load run's baseline record is built from k6's CSV output, which writes every sample",
    );
  });

  it("refuses a K6_BIN that is not k6 v2, rather than falling back silently", async ({ tmpDir: dir }) => {
    const old = await versionOnlyK6(path.join(dir, "old"), "v1.8.0");
    const result = await run([], { K6_BIN: old, PATH: "" });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("is k6 v1.8.0; the harness needs k6 v2.x [missing-tool]");
  });

  it("takes a k6 v2 on PATH, and skips a v1 there for the project-local build", async ({ tmpDir: dir }) => {
    const onPath = await versionOnlyK6(path.join(dir, "path-v2"), "v2.3.0");
    const found = await findK6({ PATH: path.dirname(onPath) }, { localBin: path.join(dir, "none", "k6") });
    expect(found.binary).toEqual({
      path: onPath,
      version: "v2.3.0",
      source: "PATH",
      harnessExtension: false,
      samplesOutput: false,
    });

    const v1 = await versionOnlyK6(path.join(dir, "path-v1"), "v1.8.0");
    const local = await versionOnlyK6(path.join(dir, "local"), "v2.2.0", true);
    await recordBuildSource(local);
    const skipped = await findK6({ PATH: path.dirname(v1) }, { localBin: local });
    expect(skipped.binary).toEqual({
      path: local,
      version: "v2.2.0",
      source: "project",
      harnessExtension: true,
      samplesOutput: true,
    });
    expect(skipped.skipped).toEqual([`${v1} is k6 v1.8.0, not v2.x`]);
  });

  it("passes over a project-local k6 built from an older tools/k6 (it may lack the response body cap)", async ({
    tmpDir: dir,
  }) => {
    const stale = await versionOnlyK6(path.join(dir, "stale"), "v2.2.0");
    const found = await findK6({ PATH: "" }, { localBin: stale });
    expect(found.binary).toBeUndefined();
    expect(found.skipped).toEqual([`${stale}, built from an older tools/k6 (rebuilding)`]);
  });

  it("explains what to install when neither k6 nor Go is available", async ({ tmpDir: dir }) => {
    const stderr = new PassThrough();
    const attempt = ensureK6({ env: { PATH: dir }, stderr, localBin: path.join(dir, "none", "k6") });
    await expect(attempt).rejects.toBeInstanceOf(UsageError);
    await expect(attempt).rejects.toMatchObject({ code: "missing-tool" });
    await expect(attempt).rejects.toThrow(/Go \(≥ 1\.25\) is not installed.*K6_BIN/);
  });
});
