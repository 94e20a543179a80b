import path from "node:path";
import { showK6 } from "../../../cli/k6/show-k6.ts";
import { UsageError } from "../../../core/index.ts";
import { capturedIo } from "../../support/command-io.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { versionOnlyK6 } from "../../support/version-only-k6.ts";

describe("showK6", () => {
  it("names the harness's own build, where it came from and its path, and nothing it lacks", async ({
    tmpDir,
  }) => {
    const k6 = await versionOnlyK6(path.join(tmpDir, "own"), "v2.2.0", true);
    const run = capturedIo({ K6_BIN: k6, PATH: "" });
    expect(await showK6({}, run.io)).toBe(0);
    // The temporary directory is outside the working directory: the path is shown whole.
    expect(path.relative(process.cwd(), k6).startsWith("..")).toBe(true);
    expect(run.stdout()).toBe(`k6 v2.2.0 (from K6_BIN): ${k6}\n`);
    expect(run.stderr()).toBe("");
  });

  it("says what a k6 without the harness's extensions costs", async ({ tmpDir }) => {
    const k6 = await versionOnlyK6(path.join(tmpDir, "theirs"), "v2.3.1", false);
    const run = capturedIo({ K6_BIN: k6, PATH: "" });
    expect(await showK6({}, run.io)).toBe(0);
    const lines = run.stdout().split("\n");
    expect(lines[0]).toMatch(/^k6 v2\.3\.1 \(from K6_BIN\): /);
    expect(lines[1]).toMatch(/^without k6\/x\/harness: response bodies are not capped; /);
    expect(lines[2]).toMatch(/^without the output harness-samples: each load run's baseline record /);
    expect(lines).toHaveLength(4);
  });

  it("names a k6 found on PATH as such", async ({ tmpDir }) => {
    const dir = path.join(tmpDir, "bin");
    await versionOnlyK6(dir, "v2.2.0", true);
    const run = capturedIo({ PATH: dir });
    await showK6({}, run.io);
    expect(run.stdout()).toBe(`k6 v2.2.0 (from PATH): ${path.join(dir, "k6")}\n`);
  });

  it("prints only the path with --print-path, whatever the build lacks", async ({ tmpDir }) => {
    const k6 = await versionOnlyK6(path.join(tmpDir, "theirs"), "v2.2.0", false);
    const run = capturedIo({ K6_BIN: k6, PATH: "" });
    expect(await showK6({ "print-path": true }, run.io)).toBe(0);
    expect(run.stdout()).toBe(`${k6}\n`);
  });

  it("refuses a K6_BIN that is no k6 v2 with a usage error", async ({ tmpDir }) => {
    const k6 = await versionOnlyK6(path.join(tmpDir, "old"), "v1.8.0", false);
    const error: unknown = await showK6({}, capturedIo({ K6_BIN: k6, PATH: "" }).io).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(UsageError);
  });
});
