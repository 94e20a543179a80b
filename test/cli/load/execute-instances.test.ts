import { access, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { executeMerged } from "../../../cli/load/execute-instances.ts";
import type { PreparedLoad } from "../../../cli/load/prepare-load.ts";
import type { LoadResult } from "../../../reporting/load/index.ts";
import { capturedIo } from "../../support/command-io.ts";
import { describe, expect } from "../../support/fixtures.ts";
import type { InstancesStandIn } from "../../support/k6-instances-stand-in.ts";
import { instancesStandInK6 } from "../../support/k6-instances-stand-in.ts";
import { checkedLoad, loadPipelineTest as it } from "../../support/load-pipeline.ts";

/** What two k6-operator runners of `load sustained --instances 2` left. */
const RECORDED = fileURLToPath(new URL("./fixtures/two-instances/", import.meta.url));

/** A prepared two-instance run whose k6 is the instances' stand-in. */
async function preparedWith(
  prepare: (given: ReturnType<typeof checkedLoad>) => Promise<{ prepared: PreparedLoad }>,
  tmpDir: string,
  standIn: Omit<InstancesStandIn, "recorded">,
): Promise<PreparedLoad> {
  const reportDir = path.join(tmpDir, "report");
  const { prepared } = await prepare(
    checkedLoad("sustained", { rate: "4", duration: "5s", vus: "2", instances: "2" }, { reportDir }),
  );
  const k6Path = await instancesStandInK6(path.join(tmpDir, "instances-bin"), {
    recorded: RECORDED,
    ...standIn,
  });
  return { ...prepared, k6: { ...prepared.k6, path: k6Path } };
}

describe("executeMerged", () => {
  it("merges the instances' outputs into one summary and one record, and says how long the merge took", async ({
    tmpDir,
    prepare,
  }) => {
    const prepared = await preparedWith(prepare, tmpDir, {});
    const out = capturedIo();
    const execution = await executeMerged(prepared, (inputs) => ({ ...inputs }), out.io);
    expect(out.stderr()).toMatch(/^event-harness: each k6 instance judges only its own segment/);
    expect(execution.ending).toEqual({ kind: "finished" });
    expect(execution.context?.instances).toBeDefined();
    expect(execution.facts).toMatchObject({
      instances: [
        { segment: "0:1/2", k6ExitCode: 0 },
        { segment: "1/2:1", k6ExitCode: 0 },
      ],
      aborted: false,
      timedOut: false,
    });
    expect(execution.facts.mergeSeconds).toEqual(expect.any(Number));
    expect(execution.facts).not.toHaveProperty("failure");
    expect(execution.reportsNote).toMatch(
      /^ \(merged from 2 instances in .+; each instance's own output in instance-N\/\)$/,
    );
    const summary = JSON.parse(await readFile(path.join(prepared.reportDir, "summary.json"), "utf8")) as {
      metrics: Record<string, unknown>;
    };
    expect(Object.keys(summary.metrics).length).toBeGreaterThan(0);
    await access(path.join(prepared.reportDir, "baseline.json"));
    const failed = {
      outcome: "failed",
      failedThresholds: [{ metric: "events_failed", expression: "rate<0.01", observed: "2.00%" }],
      regressed: [],
    };
    expect(execution.closing(failed as unknown as LoadResult)).toBe(
      "event-harness: thresholds failed on the merged data: events_failed rate<0.01 (2.00%)\n",
    );
    expect(
      execution.closing({ outcome: "passed", failedThresholds: [] } as unknown as LoadResult),
    ).toBeUndefined();
    // A run failed by its baseline alone is said so by the record.
    const regressed = { outcome: "failed", failedThresholds: [], regressed: ["events p95"] };
    expect(execution.closing(regressed as unknown as LoadResult)).toBeUndefined();
  });

  it("has no verdict when an instance fails, and renders nothing", async ({ tmpDir, prepare }) => {
    const prepared = await preparedWith(prepare, tmpDir, { failingInstance: 1 });
    const execution = await executeMerged(prepared, (inputs) => ({ ...inputs }), capturedIo().io);
    expect(execution.ending).toEqual({
      kind: "undecided",
      reason: "an instance did not finish, and a merged verdict needs every one",
    });
    expect(execution.context).toBeUndefined();
    expect(execution.compared).toBeUndefined();
    expect(execution.reportsNote).toBe("");
    expect(execution.facts.failure).toMatch(/^k6 instance 1\/2 did not start/);
    await expect(access(path.join(prepared.reportDir, "baseline.json"))).rejects.toThrow();
    expect(execution.closing({ outcome: "undecided" } as unknown as LoadResult)).toMatch(
      /^event-harness: k6 instance 1\/2 did not start[\s\S]*\nevent-harness: no verdict: every instance must finish for a merged one\n$/,
    );
  });
});
