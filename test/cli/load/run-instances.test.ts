import { access } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runInstances } from "../../../cli/load/run-instances.ts";
import type { K6Binary } from "../../../k6-tooling/index.ts";
import { planScenario } from "../../../load/index.ts";
import { Redactor } from "../../../transport/index.ts";
import { capturedIo } from "../../support/command-io.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import type { InstancesStandIn } from "../../support/k6-instances-stand-in.ts";
import { instancesStandInK6 } from "../../support/k6-instances-stand-in.ts";
import { runConfig } from "../../support/run-config-fixture.ts";

/** What two k6-operator runners of `load sustained --instances 2` left. */
const RECORDED = fileURLToPath(new URL("./fixtures/two-instances/", import.meta.url));

async function run(tmpDir: string, standIn: Omit<InstancesStandIn, "recorded">, signal?: AbortSignal) {
  const k6: K6Binary = {
    path: await instancesStandInK6(path.join(tmpDir, "bin"), { recorded: RECORDED, ...standIn }),
    version: "v2.2.0",
    source: "K6_BIN",
    harnessExtension: true,
    samplesOutput: true,
  };
  const config = runConfig("sustained", { rate: 4, durationSeconds: 5, vus: 2, instances: 2 });
  const io = capturedIo({}, signal);
  const started: (readonly string[])[] = [];
  const result = await runInstances({
    count: 2,
    k6,
    script: path.join(tmpDir, "never-read.js"),
    config,
    plan: planScenario(config),
    reportDir: path.join(tmpDir, "report"),
    env: (inputs) => ({ ...inputs }),
    extraArgs: [],
    stdout: io.io.stdout,
    stderr: io.io.stderr,
    redactor: new Redactor(),
    signal: io.io.signal,
    maxSeconds: 60,
    onStarted: (addresses) => {
      started.push(addresses);
      return () => {};
    },
  });
  return { result, started, stderr: io.stderr() };
}

describe("runInstances", () => {
  it("starts every instance paused on its own segment, resumes them together and keeps their outputs", async ({
    tmpDir,
  }) => {
    const { result, started } = await run(tmpDir, {});
    expect(result.failure).toBeUndefined();
    expect(result.aborted).toBe(false);
    expect(result.timedOut).toBe(false);
    expect(result.results.map((r) => r.exitCode)).toEqual([0, 0]);
    expect(result.outputs.map((o) => o.segment)).toEqual(["0:1/2", "1/2:1"]);
    const report = path.join(tmpDir, "report");
    expect(result.outputs.map((o) => o.summaryFile)).toEqual([
      path.join(report, "instance-1", "summary.json"),
      path.join(report, "instance-2", "summary.json"),
    ]);
    for (const output of result.outputs) {
      await access(output.summaryFile);
      await access(output.samplesFile);
    }
    // Resumed once, all together, with each instance's REST API address.
    expect(started).toHaveLength(1);
    expect(started[0]).toHaveLength(2);
    for (const address of started[0] ?? []) expect(address).toMatch(/^127\.0\.0\.1:\d+$/);
  });

  it("has no verdict when an instance does not start, saying which and its last stderr lines", async ({
    tmpDir,
  }) => {
    const { result, started, stderr } = await run(tmpDir, { failingInstance: 2 });
    expect(result.failure).toBe(
      "k6 instance 2/2 did not start (it exited or was not ready within 2 min 0 s); its last stderr lines:\n" +
        "  stand-in instance failed at start",
    );
    expect(started).toEqual([]);
    expect(stderr).toContain("[k6 2/2] stand-in instance failed at start\n");
    expect(result.results[1]?.exitCode).toBe(107);
    // The other instance was stopped, not left running.
    expect(result.results[0]?.aborted).toBe(true);
  });

  it("starts nothing on a signal already given", async ({ tmpDir }) => {
    const controller = new AbortController();
    controller.abort();
    const { result, started } = await run(tmpDir, {}, controller.signal);
    expect(result.aborted).toBe(true);
    expect(result.failure).toBeUndefined();
    expect(started).toEqual([]);
  });
});
