import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureK6, findK6, pinnedK6Version } from "../../../scripts/build/k6-binary.ts";
import { UsageError } from "../../../scripts/cli/usage-error.ts";
import { k6Command } from "../../../scripts/commands/k6.ts";
import { runInProcess } from "../../support/run-in-process.ts";

let dir: string;

/** A stand-in k6 that only answers `k6 version`, so resolution is tested without the real binary. */
async function fakeK6(name: string, version: string): Promise<string> {
  const folder = path.join(dir, name);
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, "k6");
  await writeFile(file, `#!/bin/sh\necho "k6 ${version} (go1.26.8, linux/amd64)"\n`);
  await chmod(file, 0o755);
  return file;
}

function run(args: readonly string[], env: NodeJS.ProcessEnv) {
  return runInProcess(k6Command, args, env);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "k6-resolve-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("k6 resolution", () => {
  it("reads the pinned version from tools/k6/go.mod", async () => {
    expect(await pinnedK6Version()).toMatch(/^v2\.\d+\.\d+/);
  });

  it("uses K6_BIN first and says where it came from", async () => {
    const k6 = await fakeK6("explicit", "v2.9.9");
    const result = await run([], { K6_BIN: k6, PATH: "" });
    expect(result).toMatchObject({ code: 0 });
    expect(result.stdout).toContain("k6 v2.9.9 (from K6_BIN)");
    expect((await run(["--print-path"], { K6_BIN: k6, PATH: "" })).stdout).toBe(`${k6}\n`);
  });

  it("refuses a K6_BIN that is not k6 v2, rather than falling back silently", async () => {
    const old = await fakeK6("old", "v1.8.0");
    const result = await run([], { K6_BIN: old, PATH: "" });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("is k6 v1.8.0; the harness needs k6 v2.x [missing-tool]");
  });

  it("takes a k6 v2 on PATH, and skips a v1 there for the project-local build", async () => {
    const onPath = await fakeK6("path-v2", "v2.3.0");
    const found = await findK6({ PATH: path.dirname(onPath) }, { localBin: path.join(dir, "none", "k6") });
    expect(found.binary).toEqual({ path: onPath, version: "v2.3.0", source: "PATH" });

    const v1 = await fakeK6("path-v1", "v1.8.0");
    const local = await fakeK6("local", "v2.2.0");
    const skipped = await findK6({ PATH: path.dirname(v1) }, { localBin: local });
    expect(skipped.binary).toEqual({ path: local, version: "v2.2.0", source: "project" });
    expect(skipped.skipped).toEqual([`${v1} is k6 v1.8.0, not v2.x`]);
  });

  it("explains what to install when neither k6 nor Go is available", async () => {
    const stderr = new PassThrough();
    const attempt = ensureK6({ env: { PATH: dir }, stderr, localBin: path.join(dir, "none", "k6") });
    await expect(attempt).rejects.toBeInstanceOf(UsageError);
    await expect(attempt).rejects.toMatchObject({ code: "missing-tool" });
    await expect(attempt).rejects.toThrow(/Go \(≥ 1\.25\) is not installed.*K6_BIN/);
  });
});
