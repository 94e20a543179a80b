import type { ChildProcess } from "node:child_process";
import { spawn, spawnSync } from "node:child_process";
import { chmod, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { ensureK6 } from "../../../k6-tooling/binary/k6-binary.ts";
import { describe, expect } from "../../support/fixtures.ts";
import type { LoadRuns } from "../../support/load-runs.ts";
import { beforeAllK6, loadTest as it } from "../../support/load-runs.ts";

beforeAllK6();

/** Where taskset pins a process; the kernel's run-queue times are what the judgement reads. */
const canPin = process.platform === "linux" && spawnSync("taskset", ["-c", "0", "true"]).status === 0;

/** The CPU the test crowds: the last this process may run on. */
function crowdedCpu(): string {
  const status = spawnSync("taskset", ["-cp", String(process.pid)], { encoding: "utf8" }).stdout;
  const list = /:\s*(\S+)\s*$/.exec(status)?.[1] ?? "0";
  return list.split(",").at(-1)?.split("-").at(-1) ?? "0";
}

/**
 * Runs `event-harness load` with k6 pinned to one CPU beside six processes that keep it busy for the whole run, so
 * the kernel gives k6 about a seventh of it; the busy processes end when the run does.
 */
async function starvedRun(loads: LoadRuns, args: readonly string[]) {
  const cpu = crowdedCpu();
  const k6 = await ensureK6({ env: process.env, stderr: process.stderr });
  const dir = await loads.reportDir();
  const wrapper = path.join(dir, "k6-on-a-crowded-cpu.sh");
  await writeFile(wrapper, `#!/bin/sh\nexec taskset -c ${cpu} '${k6.path}' "$@"\n`);
  await chmod(wrapper, 0o755);
  const busy: ChildProcess[] = [1, 2, 3, 4, 5, 6].map(() =>
    spawn("taskset", [
      "-c",
      cpu,
      process.execPath,
      "-e",
      "const end = Date.now() + 120000; while (Date.now() < end) {}",
    ]),
  );
  try {
    return await loads.run(args, { K6_BIN: wrapper });
  } finally {
    for (const child of busy) child.kill();
  }
}

describe.runIf(canPin)("a load run whose k6 other work keeps from its CPU", () => {
  it("has no verdict when what broke may be k6's own lateness, and says to run k6 alone (exit 3)", async ({
    loads,
  }) => {
    // The sandbox answers in about a millisecond; a tight objective breaks only if k6 reads its answers late, and
    // 800 events a second take k6 about a third of a CPU, more than it gets.
    const run = await starvedRun(loads, [
      "sustained",
      "--rate",
      "800",
      "--duration",
      "10s",
      "--threshold",
      "http_req_duration{endpoint:events}=p(95)<20",
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(3);
    expect(run.stderr).toMatch(
      /the generator, not the API, limited this run \(k6 kept from its 1 CPU by other work/,
    );
    expect(run.stderr).toContain("run k6 where no other work shares its CPUs");
    const markdown = await readFile(path.join(run.reportDir, "summary.md"), "utf8");
    expect(markdown).toMatch(
      /k6's threads were ready to run for \d+ % of the CPU time its 1 CPU offered over their most ready 5 s but ran \d+ %/,
    );
  }, 180_000);

  it("still fails a target too slow whatever k6's lateness: k6, waiting on its answers, asks little of its CPU (exit 1)", async ({
    loads,
  }) => {
    // The sandbox waits 800 ms before each answer, past the 500 ms objective whatever k6's lateness.
    const run = await starvedRun(loads, [
      "sustained",
      "--rate",
      "400",
      "--duration",
      "10s",
      "--sandbox-latency",
      "800",
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stderr).not.toContain("the generator, not the API, limited");
  }, 180_000);
});
