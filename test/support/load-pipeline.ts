import { chmod, mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { CheckedLoad } from "../../cli/load/load-settings.ts";
import { readLoadSettings } from "../../cli/load/load-settings.ts";
import type { PreparedLoad } from "../../cli/load/prepare-load.ts";
import { prepareLoad } from "../../cli/load/prepare-load.ts";
import type { LoadOptionValues } from "../../cli/options/load-options.ts";
import type { ScenarioName } from "../../load/index.ts";
import { DEFAULT_COMPARE_OPTIONS } from "../../reporting/compare/index.ts";
import { DIRECT } from "../../transport/connection/index.ts";
import { capturedIo } from "./command-io.ts";
import { test } from "./fixtures.ts";

/** What the stand-in's `k6 archive` does: the size of the archive it writes, and its exit code. */
export interface StandInArchive {
  readonly bytes: number;
  readonly exitCode: number;
}

/**
 * A stand-in for the harness's own k6 build: it answers `k6 version`, and `k6 archive` writes `archive.bytes` zero
 * bytes to --archive-out; it never runs a test. The load pipeline's preparing and recording steps find it.
 */
export async function standInK6(
  dir: string,
  version = "v2.2.0",
  archive: StandInArchive = { bytes: 2048, exitCode: 0 },
): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, "k6");
  await writeFile(
    file,
    [
      "#!/bin/sh",
      'if [ "$1" = "archive" ]; then',
      '  out=""',
      '  while [ $# -gt 0 ]; do [ "$1" = "--archive-out" ] && out="$2"; shift; done',
      `  head -c ${archive.bytes} /dev/zero > "$out"`,
      `  [ ${archive.exitCode} -ne 0 ] && echo "stand-in archive failed" >&2`,
      `  exit ${archive.exitCode}`,
      "fi",
      `echo "k6 ${version} (go1.26.8, linux/amd64)"`,
      'echo "Extensions:"',
      'echo "  event-api-harness/tools/k6/harness , k6/x/harness [js]"',
      'echo "  event-api-harness/tools/k6/samples.New , harness-samples [output]"',
      "",
    ].join("\n"),
  );
  await chmod(file, 0o755);
  return file;
}

/** A checked `load` command line against the embedded sandbox, as readLoadOptions makes one, with `overrides`. */
export function checkedLoad(
  scenario: ScenarioName,
  options: LoadOptionValues,
  overrides: Partial<CheckedLoad> = {},
): CheckedLoad {
  return {
    scenario,
    settings: readLoadSettings(scenario, options),
    faults: [],
    fileCredentials: undefined,
    external: undefined,
    tuning: { timeoutMs: 5000, clientAuth: "post", connection: DIRECT },
    operatorDir: undefined,
    expiresIn: undefined,
    reportDir: undefined,
    ledger: undefined,
    baselines: [],
    saveBaseline: undefined,
    compareOptions: DEFAULT_COMPARE_OPTIONS,
    failOn: "regressed",
    allowLatencyChange: false,
    quiet: true,
    overrides: [],
    ...overrides,
  };
}

/**
 * The shared fixtures and `prepare(checked)`: prepareLoad with a stand-in k6 in the test's directory, returning the
 * prepared run and what it said on stderr; each run's sandbox is closed and a bundle folder of its own removed after.
 */
export const loadPipelineTest = test.extend("prepare", async ({ tmpDir }, { onCleanup }) => {
  const prepared: PreparedLoad[] = [];
  onCleanup(async () => {
    for (const run of prepared) {
      await run.sandbox?.close();
      if (run.bundleDir !== run.reportDir) await rm(run.bundleDir, { recursive: true, force: true });
    }
  });
  return async (
    given: CheckedLoad,
    archive?: StandInArchive,
  ): Promise<{ prepared: PreparedLoad; stderr: string }> => {
    const k6 = await standInK6(path.join(tmpDir, `k6-bin-${prepared.length}`), "v2.2.0", archive);
    const run = capturedIo({ K6_BIN: k6, PATH: "" });
    const ready = await prepareLoad(given, run.io);
    prepared.push(ready);
    return { prepared: ready, stderr: run.stderr() };
  };
});
