import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseLedger } from "../reporting/accepted/index.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** Every file under `dir` (relative to the repository), recursively; none when it does not exist. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(ROOT, dir), { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
    ),
  );
  return nested.flat();
}

/** What a user reads and copies: the READMEs, docs/, the examples, the Action, the CLI and report sources. */
async function userFacingFiles(): Promise<string[]> {
  const trees = await Promise.all(["docs", "examples", ".ci", "cli", "reporting"].map(filesUnder));
  return [
    "README.md",
    "CONTRIBUTING.md",
    "load/README.md",
    "tools/k6/README.md",
    "action.yml",
    "action/run.sh",
    "Dockerfile",
    ...trees.flat().filter((file) => /\.(md|ya?ml|json|ts|sh)$|\/run$/.test(file)),
  ];
}

/** `npx event-harness` (with any flags before the name) that may fall back to the public registry. */
function bareNpx(text: string): string[] {
  return [...text.matchAll(/\bnpx((?:\s+-[-\w=]+)*)\s+event-harness\b/g)]
    .filter((match) => !/\s--no-install\b/.test(match[1] ?? ""))
    .map((match) => match[0]);
}

describe("examples and docs for another repository", () => {
  it("never run a bare `npx event-harness`, which fetches whatever the public registry has under that name", async () => {
    const files = await userFacingFiles();
    expect(files.length).toBeGreaterThan(20);
    const found: string[] = [];
    for (const file of files) {
      const text = await readFile(path.join(ROOT, file), "utf8");
      for (const hit of bareNpx(text)) found.push(`${file}: ${hit}`);
    }
    expect(found).toEqual([]);
  });

  it("the check itself tells the two apart", () => {
    expect(bareNpx("npx event-harness run\nnpx --yes event-harness k6")).toHaveLength(2);
    expect(bareNpx("npx --no-install event-harness run; ./node_modules/.bin/event-harness run")).toEqual([]);
  });

  it("the example workflows pin every action to a full commit id and run the installed harness", async () => {
    const workflows = (await filesUnder("examples/github-actions")).filter((file) => file.endsWith(".yml"));
    expect(workflows.length).toBeGreaterThanOrEqual(2);
    for (const file of workflows) {
      const text = await readFile(path.join(ROOT, file), "utf8");
      const workflow = parse(text) as {
        jobs: Record<
          string,
          { steps: Array<{ uses?: string; run?: string; with?: Record<string, string> }> }
        >;
      };
      const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
      for (const step of steps) {
        if (step.uses === undefined || step.uses.startsWith("./")) continue;
        expect(step.uses, file).toMatch(/^[\w-]+\/[\w-]+@[0-9a-f]{40}$/);
        expect(text, file).toContain(`uses: ${step.uses} # v`);
      }
      // A checkout of another repository is pinned to a commit too (vars.…: checked at run time by the workflow).
      for (const step of steps.filter((candidate) => candidate.with?.repository !== undefined)) {
        expect(step.with?.ref, file).toMatch(/^[0-9a-f]{40}$|^\$\{\{ vars\.EVENT_HARNESS_COMMIT \}\}$/);
      }
      for (const run of steps.flatMap((step) => (step.run === undefined ? [] : [step.run]))) {
        for (const call of run.match(/\S*event-harness (?:run|contract|load|k6)\b/g) ?? [])
          expect(call, file).toMatch(/^\.\/node_modules\/\.bin\/event-harness /);
      }
      // The gate is judged with files committed in the consumer's repository.
      expect(text, file).toMatch(/harness\.json/);
      expect(text, file).toMatch(/accepted\.json/);
      expect(text, file).toMatch(/baselines\/sustained\.json/);
    }
  });
});

describe("the example workflow that records the baseline", () => {
  it("records it where the gate runs, with the gate's load settings, and hands it over for a commit of its own", async () => {
    const workflows = (await filesUnder("examples/github-actions")).filter((file) => file.endsWith(".yml"));
    type Step = { uses?: string; run?: string; with?: Record<string, string> };
    type Job = { "runs-on"?: string; environment?: string; steps: Step[] };
    const recording: Array<{ file: string; on: Record<string, unknown>; job: Job }> = [];
    const gates: Job[] = [];
    for (const file of workflows) {
      const workflow = parse(await readFile(path.join(ROOT, file), "utf8")) as {
        on: Record<string, unknown>;
        jobs: Record<string, Job>;
      };
      for (const job of Object.values(workflow.jobs)) {
        const runs = job.steps.flatMap((step) => (step.run === undefined ? [] : [step.run]));
        if (runs.some((run) => /event-harness load sustained .*--save-baseline/s.test(run)))
          recording.push({ file, on: workflow.on, job });
        else if (runs.some((run) => /event-harness run /.test(run))) gates.push(job);
      }
    }
    expect(recording.map((r) => r.file)).toHaveLength(1);
    const [{ on, job }] = recording as [(typeof recording)[number]];
    // On purpose only, by hand: a baseline is re-recorded in its own commit, never by every push.
    expect(Object.keys(on)).toEqual(["workflow_dispatch"]);
    // The gate's runner class and environment, and the duration of harness.json's "sustained=1m".
    expect(gates.length).toBeGreaterThan(0);
    for (const gate of gates) expect(job["runs-on"]).toBe(gate["runs-on"]);
    expect(job.environment).toBe("staging");
    const record = job.steps.find((step) => /--save-baseline/.test(step.run ?? ""))?.run ?? "";
    expect(record).toMatch(/--config harness\.json --environment staging/);
    expect(record).toMatch(/--duration 1m\b/);
    const upload = job.steps.find((step) => step.uses?.startsWith("actions/upload-artifact@"));
    expect(upload?.with?.path).toMatch(/baseline/);
    expect(upload?.with?.["if-no-files-found"]).toBe("error");
  });
});

describe("the example ledgers", () => {
  it("waive nothing: the first copy a team makes keeps every check it has switched on", async () => {
    const ledgers = (await filesUnder("examples")).filter((file) => /accepted[^/]*\.json$/.test(file));
    expect(ledgers.length).toBeGreaterThan(0);
    for (const file of ledgers) {
      const reading = parseLedger(await readFile(path.join(ROOT, file), "utf8"), file, "2026-11-28");
      expect(reading.ok && reading.ledger.entries, file).toEqual([]);
    }
  });

  it("are shown as recipes in the docs, each of which a ledger reads", async () => {
    const text = await readFile(path.join(ROOT, "docs/reference/ledger.md"), "utf8");
    const blocks = [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
    const recipes = blocks.filter((block) => block.includes('"accepted"'));
    expect(recipes.length).toBeGreaterThanOrEqual(2);
    for (const recipe of recipes) {
      const reading = parseLedger(recipe, "ledger.md", "2026-11-28");
      expect(reading.ok || reading.problem.message).toBe(true);
    }
    // The Keycloak recipe is bound to the environment it was written for, so it cannot silence another server.
    expect(recipes.some((r) => r.includes('"lifetime.sliding"') && r.includes('"environment"'))).toBe(true);
  });
});
