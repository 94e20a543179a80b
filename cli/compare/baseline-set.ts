import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { UsageError } from "../../core/index.ts";
import type { LoadRecord } from "../../reporting/compare/index.ts";
import { displayPath } from "../display-path.ts";
import { baselineOptions } from "../options/gate-options.ts";
import { LOAD_RECORD_FILE, readComparable } from "./read-comparable.ts";

/** A baseline as read from where the user named it. */
export interface NamedBaseline {
  /** The file, as messages name it. */
  readonly name: string;
  /** The file's absolute path, for the command line that repeats a part. */
  readonly file: string;
  readonly record: LoadRecord;
}

/** The baselines the user named: --baseline (repeatable for `run`), else EVENT_HARNESS_BASELINE, one path a line. */
export function baselinePaths(
  option: string | readonly string[] | undefined,
  env: NodeJS.ProcessEnv,
): string[] {
  const given = option === undefined ? [] : typeof option === "string" ? [option] : [...option];
  const fromEnv = env[baselineOptions.baseline.env] ?? "";
  const raw = given.length > 0 ? given : fromEnv.split("\n");
  return raw.map((item) => item.trim()).filter((item) => item !== "");
}

/** A run's report dir holds one load report dir per scenario (`load-sustained/`), each with its baseline.json. */
async function runDirRecords(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const found: string[] = [];
  for (const name of names.filter((n) => n.startsWith("load-")).sort()) {
    const file = path.join(dir, name, LOAD_RECORD_FILE);
    if ((await stat(file).catch(() => undefined))?.isFile()) found.push(file);
  }
  return found;
}

/**
 * Reads every baseline named: a baseline file, a load report dir (its baseline.json) or a run's report dir (the
 * baseline.json of each of its load parts). Each is validated; a contract run or a broken file is exit 2.
 */
export async function readBaselineSet(paths: readonly string[], command: string): Promise<NamedBaseline[]> {
  const files: string[] = [];
  for (const given of paths) {
    const info = await stat(given).catch(() => undefined);
    const inRunDir =
      info?.isDirectory() === true && !(await stat(path.join(given, LOAD_RECORD_FILE)).catch(() => undefined))
        ? await runDirRecords(given)
        : [];
    files.push(...(inRunDir.length > 0 ? inRunDir : [given]));
  }
  const out: NamedBaseline[] = [];
  for (const file of files) {
    const comparable = await readComparable(file, command);
    if (comparable.kind !== "load") {
      throw new UsageError(
        "invalid-config",
        `--baseline ${comparable.name} is a contract run, not a load baseline`,
        command,
      );
    }
    const resolved = path.resolve(file);
    const absolute = (await stat(resolved)).isDirectory() ? path.join(resolved, LOAD_RECORD_FILE) : resolved;
    out.push({ name: comparable.name, file: absolute, record: comparable.record });
  }
  return out;
}

/**
 * The baseline of one scenario: the only one given, or the one recorded for that scenario. Undefined when none was
 * given; two for one scenario, or none for it among several, is exit 2. `byScenario` matches even a single one by
 * its scenario, for a run of several scenarios.
 */
export function baselineFor(
  set: readonly NamedBaseline[],
  scenario: string,
  command: string,
  byScenario = false,
): NamedBaseline | undefined {
  const [only] = set;
  // One baseline is meant for this run: another scenario is then refused with the settings that differ.
  if (only === undefined || (set.length === 1 && !byScenario)) return only;
  const matching = set.filter((b) => b.record.settings.scenario === scenario);
  if (matching.length === 1) return matching[0];
  const names = set.map((b) => displayPath(b.file)).join(", ");
  throw new UsageError(
    "invalid-config",
    matching.length === 0
      ? `no baseline for scenario ${scenario} among ${names}: record one with load ${scenario} --save-baseline FILE`
      : `more than one baseline for scenario ${scenario}: ${matching.map((b) => displayPath(b.file)).join(", ")}`,
    command,
  );
}
