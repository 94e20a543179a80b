import { chmod, mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";
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
 * What the stand-in's `k6 run` does instead of a test: writes `samples` (gzipped) to the file of its `--out
 * harness-samples=FILE`, `stderr` to its stderr (k6's log lines), and exits with `exitCode`.
 */
export interface StandInRun {
  readonly exitCode: number;
  readonly samples?: string;
  readonly stderr?: string;
}

/** What the stand-in k6 does when asked to archive or run. */
export interface StandInBehaviour {
  readonly archive?: StandInArchive;
  readonly run?: StandInRun;
}

/**
 * A stand-in for the harness's own k6 build: it answers `k6 version`, `k6 archive` writes a zero-filled archive and
 * `k6 run` only writes what `behaviour.run` says, so the load pipeline's steps are tested without a load test.
 */
export async function standInK6(
  dir: string,
  version = "v2.2.0",
  behaviour: StandInBehaviour = {},
): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, "k6");
  const archive = behaviour.archive ?? { bytes: 2048, exitCode: 0 };
  const run = behaviour.run ?? { exitCode: 0 };
  // The run's texts sit beside the script, so no shell quoting can change them.
  // Gzipped, as the file the harness names for its samples output ends in .gz.
  await writeFile(path.join(dir, "run-samples.txt"), gzipSync(run.samples ?? ""));
  await writeFile(path.join(dir, "run-stderr.txt"), run.stderr ?? "");
  await writeFile(
    file,
    [
      "#!/bin/sh",
      `here="${dir}"`,
      'if [ "$1" = "archive" ]; then',
      '  out=""',
      '  while [ $# -gt 0 ]; do [ "$1" = "--archive-out" ] && out="$2"; shift; done',
      `  head -c ${archive.bytes} /dev/zero > "$out"`,
      `  [ ${archive.exitCode} -ne 0 ] && echo "stand-in archive failed" >&2`,
      `  exit ${archive.exitCode}`,
      "fi",
      'if [ "$1" = "run" ]; then',
      "  while [ $# -gt 0 ]; do",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a JavaScript template.
      '    case "$2" in harness-samples=*) [ "$1" = "--out" ] && cp "$here/run-samples.txt" "${2#harness-samples=}";; esac',
      "    shift",
      "  done",
      '  cat "$here/run-stderr.txt" >&2',
      `  exit ${run.exitCode}`,
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
    behaviour?: StandInBehaviour,
  ): Promise<{ prepared: PreparedLoad; stderr: string }> => {
    const k6 = await standInK6(path.join(tmpDir, `k6-bin-${prepared.length}`), "v2.2.0", behaviour);
    const run = capturedIo({ K6_BIN: k6, PATH: "" });
    const ready = await prepareLoad(given, run.io);
    prepared.push(ready);
    return { prepared: ready, stderr: run.stderr() };
  };
});
