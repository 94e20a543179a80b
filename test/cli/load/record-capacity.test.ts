import { access, readFile } from "node:fs/promises";
import path from "node:path";
import type { CapacityExecution } from "../../../cli/load/execute-capacity.ts";
import { recordCapacity } from "../../../cli/load/record-capacity.ts";
import type { CapacityStepResult } from "../../../reporting/load/index.ts";
import { capturedIo } from "../../support/command-io.ts";
import { describe, expect } from "../../support/fixtures.ts";
import { checkedLoad, loadPipelineTest as it } from "../../support/load-pipeline.ts";
import { xmlProblems } from "../../support/xml-document.ts";

/** One judged step of a search: held, broken by its failures, or stopped. */
function step(index: number, rate: number, outcome: CapacityStepResult["outcome"]): CapacityStepResult {
  const broken = outcome === "broken";
  return {
    index,
    rate,
    phase: "up",
    warmUpSeconds: 5,
    judgedSeconds: 10,
    plannedIterations: rate * 10,
    maxVus: 20,
    dir: `steps/step-${index}`,
    outcome,
    reason: outcome === "aborted" ? "interrupted" : undefined,
    brokenBy: broken
      ? [{ metric: "events_failed", expression: "rate<0.01", ok: false, observed: "rate=4.00%" }]
      : [],
    violations: [],
    events: rate * 10,
    accepted: broken ? rate * 9.6 : rate * 10,
    acceptedPerSecond: broken ? rate * 0.96 : rate,
    failureRate: broken ? 0.04 : 0,
    latency: { p50: 20, p95: 40, p99: 60, avg: 22 },
    dropped: 0,
    generator: { limited: false, signals: [], measured: "k6 used 10 % of its CPUs" },
    k6CpuShare: 0.1,
    expiry: { unexpected: 0, outlived: 0, extended: 0 },
  };
}

function execution(steps: CapacityStepResult[], stop: CapacityExecution["stop"]): CapacityExecution {
  return {
    steps,
    stop,
    search: {
      startRate: 100,
      factor: 2,
      resolution: { kind: "relative", value: 0.5 },
      maxRate: 20_000,
      maxSteps: 15,
      timeBoundSeconds: 600,
      stepWarmUpSeconds: 5,
      stepSeconds: 10,
      eventsPerStep: 100,
    },
    objectives: [{ metric: "events_failed", expression: "rate<0.01" }],
    contractThresholds: [],
    runSeconds: 45,
  };
}

describe("recordCapacity", () => {
  it("writes the reports, run.json and baseline.json of a bracketed capacity, and passes", async ({
    tmpDir,
    prepare,
  }) => {
    const reportDir = path.join(tmpDir, "report");
    const { prepared } = await prepare(
      checkedLoad("capacity", { rate: "100", resolution: "50%" }, { reportDir }),
    );
    const out = capturedIo();
    const steps = [step(1, 100, "held"), step(2, 200, "held"), step(3, 400, "broken")];
    expect(await recordCapacity(prepared, execution(steps, "bracketed"), out.io)).toBe(0);
    expect(out.stderr()).toBe("");
    expect(out.stdout()).toMatch(
      /\nReports: .*report\/summary\.md, summary\.json, junit\.xml, capacity\.html, run\.json, baseline\.json \(each step's own k6 output in steps\/\)\n$/,
    );
    const run = JSON.parse(await readFile(path.join(reportDir, "run.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(run.capacity).toEqual({ held: 200, broken: 400, limitedAt: null, stop: "bracketed", steps: 3 });
    expect((run.result as { outcome: string }).outcome).toBe("passed");
    const record = JSON.parse(await readFile(path.join(reportDir, "baseline.json"), "utf8")) as {
      capacity: Record<string, unknown>;
    };
    expect(record.capacity).toMatchObject({ kind: "bracketed", held: 200, broken: 400, limitedAt: null });
    expect(xmlProblems(await readFile(path.join(reportDir, "junit.xml"), "utf8"))).toEqual([]);
    expect(JSON.parse(await readFile(path.join(reportDir, "summary.json"), "utf8"))).toBeTypeOf("object");
    await access(path.join(reportDir, "capacity.html"));
    const secret = prepared.sandbox?.clients[0]?.clientSecret as string;
    for (const name of ["summary.md", "summary.json", "junit.xml", "capacity.html", "run.json"]) {
      expect(await readFile(path.join(reportDir, name), "utf8"), name).not.toContain(secret);
    }
  });

  it("keeps no baseline of an interrupted search, says why it stopped and exits 3", async ({
    tmpDir,
    prepare,
  }) => {
    const reportDir = path.join(tmpDir, "report");
    const { prepared } = await prepare(checkedLoad("capacity", { rate: "100" }, { reportDir }));
    const out = capturedIo();
    const steps = [step(1, 100, "held"), step(2, 200, "aborted")];
    expect(await recordCapacity(prepared, execution(steps, "aborted"), out.io)).toBe(3);
    expect(out.stderr()).toMatch(/^event-harness: ABORTED: step 2 at 200\/s: interrupted/);
    await expect(access(path.join(reportDir, "baseline.json"))).rejects.toThrow();
    const run = JSON.parse(await readFile(path.join(reportDir, "run.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(run.capacity).toEqual({ held: 100, broken: null, limitedAt: null, stop: "aborted", steps: 2 });
    expect(out.stdout()).not.toContain("baseline.json");
  });
});
