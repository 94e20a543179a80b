import { cp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";
import { loadMergeCommand } from "../../../cli/commands/load-merge.ts";
import { PLAN_FORMAT } from "../../../k6-tooling/operator/write-k6-operator.ts";
import { it as base, describe, expect } from "../../support/fixtures.ts";
import { HOSTILE_FILE_WORDS, hostileFile, releaseFifo } from "../../support/hostile-files.ts";
import { sustainedReportContext } from "../../support/run-config-fixture.ts";
import { runInProcess } from "../../support/run-in-process.ts";

/** Recorded from `load sustained --instances 2`: what two k6-operator runners leave. */
const FIXTURE = fileURLToPath(new URL("./fixtures/two-instances/", import.meta.url));
/** A FIFO read the old way blocks for ever: the test ends long before, and says so. */
const LIMIT_MS = 15_000;

let fifo: string | undefined;
afterEach(() => {
  if (fifo !== undefined) releaseFifo(fifo);
  fifo = undefined;
});

/** A k6-operator output folder in the test's own directory: plan.json and the two runners' directories under results/. */
const it = base.extend("operatorOutput", async ({ tmpDir }) => {
  return async (name: string): Promise<{ dir: string; runners: string[] }> => {
    const dir = path.join(tmpDir, name);
    const runners = [1, 2].map((i) => path.join(dir, "results", `instance-${i}`));
    await cp(FIXTURE, path.join(dir, "results"), { recursive: true });
    await writeFile(
      path.join(dir, "plan.json"),
      JSON.stringify({ format: PLAN_FORMAT, context: sustainedReportContext, parallelism: 2 }),
    );
    return { dir, runners };
  };
});

const merge = (dir: string, runners: readonly string[], extra: readonly string[] = []) =>
  runInProcess(loadMergeCommand, [...runners, "--plan", path.join(dir, "plan.json"), ...extra]);

describe("load-merge writes each merge into a directory of its own", () => {
  it("a rerun leaves the earlier merge as it was and writes a fresh one beside it", async ({
    operatorOutput,
  }) => {
    const { dir, runners } = await operatorOutput("rerun");
    const first = await merge(dir, runners);
    expect(first.code, first.stderr).not.toBe(2);
    const before = await readFile(path.join(dir, "merged", "summary.md"), "utf8");
    await writeFile(path.join(dir, "merged", "notes.txt"), "the team's own notes");
    const second = await merge(dir, runners);
    expect(second.code, second.stderr).toBe(first.code);
    expect(second.stdout).toContain(path.join("merged-2", "summary.md"));
    expect(await readFile(path.join(dir, "merged", "summary.md"), "utf8")).toBe(before);
    expect(await readFile(path.join(dir, "merged", "notes.txt"), "utf8")).toBe("the team's own notes");
    expect(await readdir(path.join(dir, "merged-2"))).toEqual(
      expect.arrayContaining(["summary.md", "summary.json"]),
    );
  });

  it("--report-dir naming a directory that holds anything is refused (exit 2), and left untouched", async ({
    operatorOutput,
  }) => {
    const { dir, runners } = await operatorOutput("named");
    const taken = path.join(dir, "taken");
    await cp(path.join(runners[0] as string), taken, { recursive: true });
    const listed = await readdir(taken);
    const run = await merge(dir, runners, ["--report-dir", taken]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("exists and is not empty");
    expect(await readdir(taken)).toEqual(listed);
  });
});

describe("a runner's outputs must be regular files", () => {
  it.for([
    ["samples.csv.gz", "fifo"],
    ["samples.csv.gz", "directory"],
    ["summary.json", "fifo"],
    ["summary.json", "directory"],
  ] as const)(
    "%s given as a %s: exit 2 naming it, no hang",
    { timeout: LIMIT_MS },
    async ([name, kind], { operatorOutput }) => {
      const { dir, runners } = await operatorOutput(`${name}-${kind}`);
      const runner = runners[1] as string;
      await rm(path.join(runner, name));
      const file = await hostileFile(runner, kind, name);
      if (kind === "fifo") fifo = file;
      const run = await merge(dir, runners);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(path.join("instance-2", name));
      expect(run.stderr).toMatch(HOSTILE_FILE_WORDS[kind]);
      expect(run.stderr).not.toContain("internal error");
    },
  );

  it("a runner that left no summary.json is no verdict (exit 3), not a usage error", async ({
    operatorOutput,
  }) => {
    const { dir, runners } = await operatorOutput("summary-missing");
    await rm(path.join(runners[1] as string, "summary.json"));
    const run = await merge(dir, runners);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain("wrote no end-of-test summary");
  });
});

describe("plan.json is read against its schema", () => {
  it.for([
    ["a field of the wrong type", { vus: "many" }, "context.vus"],
    ["a key no plan holds", { injected: "<script>" }, "context"],
    ["an unknown scenario", { scenario: "ddos" }, "context.scenario"],
    ["thousands of warnings", { warnings: Array.from({ length: 5000 }, () => "w") }, "context.warnings"],
  ] as const)(
    "%s: exit 2 naming the field, no report written",
    async ([, change, field], { operatorOutput }) => {
      const { dir, runners } = await operatorOutput(`plan-${field}-${Object.keys(change)[0]}`);
      await writeFile(
        path.join(dir, "plan.json"),
        JSON.stringify({
          format: PLAN_FORMAT,
          context: { ...sustainedReportContext, ...change },
          parallelism: 2,
        }),
      );
      const run = await merge(dir, runners);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(field);
      expect(run.stderr).not.toContain("internal error");
      expect(run.stderr).not.toContain("<script>");
      await expect(readdir(path.join(dir, "merged"))).rejects.toThrow();
    },
  );
});
