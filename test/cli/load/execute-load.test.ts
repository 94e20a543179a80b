import { access, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { executeLoad } from "../../../cli/load/execute-load.ts";
import type { LoadResult } from "../../../reporting/load/index.ts";
import { capturedIo } from "../../support/command-io.ts";
import { describe, expect } from "../../support/fixtures.ts";
import { checkedLoad, loadPipelineTest as it } from "../../support/load-pipeline.ts";

/** The harness's own samples output of a short run: events in two seconds, none failed. */
const SAMPLES = [
  "# harness-samples 1: ms,kind,value",
  "100,token,4",
  ...Array.from({ length: 8 }, (_, i) => `${1000 + 250 * i},events,${20 + i}\n${1000 + 250 * i},failed,0`),
  "",
].join("\n");

const K6_ERROR = (msg: string) => `time="2026-11-28T10:00:00Z" level=error msg="${msg}"\n`;

describe("executeLoad, one k6 process", () => {
  it("records a finished run's samples as baseline.json and drops its own samples file", async ({
    tmpDir,
    prepare,
  }) => {
    const reportDir = path.join(tmpDir, "report");
    const { prepared } = await prepare(
      checkedLoad("sustained", { rate: "2", duration: "5s" }, { reportDir }),
      {
        run: { exitCode: 0, samples: SAMPLES },
      },
    );
    const out = capturedIo();
    const execution = await executeLoad(prepared, out.io);
    expect(execution.ending).toEqual({ kind: "finished" });
    expect(execution.facts).toEqual({ k6ExitCode: 0, aborted: false, timedOut: false });
    expect(execution.compared).toBeUndefined();
    const record = JSON.parse(await readFile(path.join(reportDir, "baseline.json"), "utf8")) as {
      units: { accepted: number }[];
    };
    expect(record.units.reduce((sum, unit) => sum + unit.accepted, 0)).toBe(8);
    expect((await readdir(reportDir)).filter((name) => name.startsWith("samples"))).toEqual([]);
    expect(
      execution.closing({ outcome: "passed", failedThresholds: [], regressed: [] } as unknown as LoadResult),
    ).toBe(undefined);
    const said = out.stderr().split("\n");
    expect(said[0]).toMatch(/^event-harness: /);
    expect(said[1]).toMatch(
      /^event-harness: target http:\/\/127\.0\.0\.1:\d+\/?.* \(embedded sandbox — not your API\), k6 v2\.2\.0$/,
    );
    expect(said[2]).toMatch(/^event-harness: reports in .*report$/);
  });

  it("leaves a run whose script failed undecided, counts k6's error lines and records nothing", async ({
    tmpDir,
    prepare,
  }) => {
    const reportDir = path.join(tmpDir, "report");
    const { prepared } = await prepare(
      checkedLoad("sustained", { rate: "2", duration: "5s" }, { reportDir }),
      {
        run: { exitCode: 107, samples: SAMPLES, stderr: K6_ERROR("TypeError: boom") + K6_ERROR("second") },
      },
    );
    const out = capturedIo();
    const execution = await executeLoad(prepared, out.io);
    expect(execution.ending).toEqual({
      kind: "undecided",
      reason: "the k6 script stopped with an error (exit 107)",
    });
    expect(execution.facts).toEqual({ k6ExitCode: 107, aborted: false, timedOut: false });
    expect(out.stderr()).toMatch(/event-harness: k6 logged 2 error lines: see .*report\/k6\.log\n$/);
    expect(await readFile(path.join(reportDir, "k6.log"), "utf8")).toContain("TypeError: boom");
    await expect(access(path.join(reportDir, "baseline.json"))).rejects.toThrow();
    expect((await readdir(reportDir)).filter((name) => name.startsWith("samples"))).toEqual([]);
    const undecided = { outcome: "undecided", reason: "the k6 script stopped with an error (exit 107)" };
    expect(execution.closing(undecided as unknown as LoadResult)).toBe(
      "event-harness: the k6 script stopped with an error (exit 107); see above\n",
    );
  });

  it("names the crossed thresholds of a failed run in its closing line", async ({ tmpDir, prepare }) => {
    const reportDir = path.join(tmpDir, "report");
    const { prepared } = await prepare(
      checkedLoad("sustained", { rate: "2", duration: "5s" }, { reportDir }),
      {
        run: { exitCode: 99, samples: SAMPLES },
      },
    );
    const execution = await executeLoad(prepared, capturedIo().io);
    expect(execution.ending).toEqual({ kind: "finished" });
    const failed = {
      outcome: "failed",
      failedThresholds: [
        { metric: "events_failed", expression: "rate<0.01", observed: "3.00%" },
        { metric: "token_expiries{kind:unexpected}", expression: "count==0" },
      ],
      regressed: [],
    };
    expect(execution.closing(failed as unknown as LoadResult)).toBe(
      "event-harness: thresholds failed: events_failed rate<0.01 (3.00%); token_expiries{kind:unexpected} count==0\n",
    );
    // A run failed by its baseline comparison alone is said so by the record instead.
    const regressed = { outcome: "failed", failedThresholds: [], regressed: ["events p95"] };
    expect(execution.closing(regressed as unknown as LoadResult)).toBeUndefined();
  });
});
