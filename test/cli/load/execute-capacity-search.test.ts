import { access } from "node:fs/promises";
import path from "node:path";
import { executeCapacity } from "../../../cli/load/execute-capacity.ts";
import { capturedIo } from "../../support/command-io.ts";
import { describe, expect } from "../../support/fixtures.ts";
import { checkedLoad, loadPipelineTest as it } from "../../support/load-pipeline.ts";

// The search's steps with k6 judging a target are run by test/cli/commands/load-capacity*.test.ts; here a stand-in
// k6 that never runs a test shows how the search starts, stops and reports itself.

describe("executeCapacity", () => {
  it("stops after a step k6 could not finish, with no verdict, saying so step by step", async ({
    tmpDir,
    prepare,
  }) => {
    const reportDir = path.join(tmpDir, "report");
    const { prepared } = await prepare(
      checkedLoad("capacity", { rate: "100", "step-warm-up": "2s", "step-duration": "5s" }, { reportDir }),
      { run: { exitCode: 107 } },
    );
    const out = capturedIo();
    const execution = await executeCapacity(prepared, out.io);
    expect(execution.stop).toBe("no-verdict");
    expect(execution.steps).toHaveLength(1);
    expect(execution.steps[0]).toMatchObject({
      index: 1,
      rate: 100,
      phase: "up",
      warmUpSeconds: 2,
      outcome: "no-verdict",
      reason: "the k6 script stopped with an error (exit 107)",
      dir: path.join("steps", "01-100"),
    });
    await access(path.join(reportDir, "steps", "01-100"));
    expect(execution.contractThresholds).toEqual([]);
    expect(execution.search).toMatchObject({
      startRate: 100,
      factor: 2,
      resolution: { kind: "relative", value: 0.05 },
      maxRate: 20_000,
      maxSteps: 15,
      timeBoundSeconds: 600,
      stepWarmUpSeconds: 2,
      stepSeconds: 5,
    });
    expect(execution.objectives).toContainEqual({
      metric: "dropped_iterations",
      expression: "count<=1% of planned",
    });
    const lines = out.stderr().trimEnd().split("\n");
    expect(lines[0]).toMatch(
      /^event-harness: capacity: client model \w[\w-]*, expires_in 5s \(margin [\d.]+s\)$/,
    );
    expect(lines[1]).toMatch(
      /^event-harness: capacity search from 100\/s, ×2 a step, to a resolution of 5 %; each step 2s not judged, then at least \d+ events judged; at most 15 steps, 20000\/s and 10m$/,
    );
    expect(lines[2]).toMatch(/^event-harness: target .* \(embedded sandbox — not your API\), k6 v2\.2\.0$/);
    expect(lines[3]).toMatch(/^event-harness: reports in .*report$/);
    expect(lines[4]).toMatch(
      /^event-harness: step 1 \(up\): 100\/s, 2s not judged, then \d+s judged, up to \d+ VUs$/,
    );
    expect(lines.at(-1)).toBe(
      "event-harness: step 1: 100/s no verdict: the k6 script stopped with an error (exit 107)",
    );
  });

  it("runs no step that would end past --duration, and stops on time", async ({ tmpDir, prepare }) => {
    const reportDir = path.join(tmpDir, "report");
    const { prepared } = await prepare(
      checkedLoad(
        "capacity",
        { rate: "100", duration: "12s", "step-warm-up": "2s", "step-duration": "5s" },
        { reportDir },
      ),
      { run: { exitCode: 107 } },
    );
    const out = capturedIo();
    const execution = await executeCapacity(prepared, out.io);
    expect(execution.stop).toBe("time");
    expect(execution.steps).toEqual([]);
    expect(out.stderr()).not.toContain("step 1");
    await expect(access(path.join(reportDir, "steps"))).rejects.toThrow();
  });

  it("stops as aborted when the run is interrupted, its step marked aborted with the signal's words", async ({
    tmpDir,
    prepare,
  }) => {
    const { prepared } = await prepare(
      checkedLoad(
        "capacity",
        { rate: "100", "step-warm-up": "2s", "step-duration": "5s" },
        {
          reportDir: path.join(tmpDir, "report"),
        },
      ),
      { run: { exitCode: 0 } },
    );
    const controller = new AbortController();
    controller.abort("received SIGTERM");
    const execution = await executeCapacity(prepared, capturedIo({}, controller.signal).io);
    expect(execution.stop).toBe("aborted");
    expect(execution.steps.map((step) => [step.outcome, step.reason])).toEqual([
      ["aborted", "interrupted (received SIGTERM)"],
    ]);
  });
});
