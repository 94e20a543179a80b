import { cp, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { LoadExecution } from "../../../cli/load/load-execution.ts";
import { recordLoad } from "../../../cli/load/record-load.ts";
import type { LoadResult } from "../../../reporting/load/index.ts";
import { capturedIo } from "../../support/command-io.ts";
import { describe, expect } from "../../support/fixtures.ts";
import { checkedLoad, loadPipelineTest as it } from "../../support/load-pipeline.ts";
import { xmlProblems } from "../../support/xml-document.ts";

/** k6's summary of one instance of a recorded sustained run. */
const SUMMARY = fileURLToPath(new URL("./fixtures/two-instances/instance-1/summary.json", import.meta.url));

const LISTED = ["summary.md", "summary.json", "junit.xml", "run.json"];

function execution(overrides: Partial<LoadExecution>, closings: LoadResult[] = []): LoadExecution {
  return {
    ending: { kind: "finished" },
    context: undefined,
    facts: { k6Exit: 0 },
    compared: undefined,
    listed: LISTED,
    reportsNote: "",
    closing(verdict) {
      closings.push(verdict);
      return verdict.outcome === "passed" ? undefined : "event-harness: closing word\n";
    },
    ...overrides,
  };
}

async function runJson(dir: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path.join(dir, "run.json"), "utf8")) as Record<string, unknown>;
}

describe("recordLoad", () => {
  it("records a run stopped before k6 summed up: no verdict (exit 3), run.json and its last words", async ({
    tmpDir,
    prepare,
  }) => {
    const reportDir = path.join(tmpDir, "report");
    const { prepared } = await prepare(
      checkedLoad("sustained", { rate: "2", duration: "5s" }, { reportDir }),
    );
    const out = capturedIo();
    const closings: LoadResult[] = [];
    const code = await recordLoad(
      prepared,
      execution({ ending: { kind: "aborted", reason: "interrupted (received SIGINT)" } }, closings),
      out.io,
    );
    expect(code).toBe(3);
    expect(out.stdout()).toMatch(
      /^\n {2}ABORTED: interrupted \(received SIGINT\)\n\nReports: .*report\/run\.json\n$/,
    );
    expect(out.stderr()).toBe("event-harness: closing word\n");
    expect(closings.map((verdict) => verdict.outcome)).toEqual(["aborted"]);
    const record = await runJson(reportDir);
    expect(record).toMatchObject({
      k6: "v2.2.0",
      scenario: "sustained",
      runId: prepared.runId,
      seed: prepared.settings.seed,
      target: prepared.targetRecord,
      sandboxFaults: [],
      result: {
        outcome: "aborted",
        reason: "interrupted (received SIGINT)",
        verdict: "ABORTED: interrupted (received SIGINT)",
      },
      k6Exit: 0,
    });
    expect(Date.parse(record.finishedAt as string)).toBeGreaterThanOrEqual(
      Date.parse(record.startedAt as string),
    );
    const secret = prepared.sandbox?.clients[0]?.clientSecret as string;
    expect(await readFile(path.join(reportDir, "run.json"), "utf8")).not.toContain(secret);
  });

  it("renders k6's summary into the reports and names those it wrote", async ({ tmpDir, prepare }) => {
    const reportDir = path.join(tmpDir, "report");
    const { prepared } = await prepare(
      checkedLoad("sustained", { rate: "2", duration: "5s" }, { reportDir }),
    );
    await cp(SUMMARY, path.join(reportDir, "summary.json"));
    const out = capturedIo();
    const code = await recordLoad(prepared, execution({ context: prepared.context }), out.io);
    const record = await runJson(reportDir);
    // The recorded run held every default threshold.
    expect(record.result).toEqual({ outcome: "passed", reason: null, verdict: "PASSED: thresholds held" });
    expect(code).toBe(0);
    expect(out.stdout()).toContain("PASSED");
    expect(out.stderr()).toBe("");
    expect(out.stdout()).toMatch(/\nReports: .*report\/summary\.md, summary\.json, junit\.xml, run\.json\n$/);
    expect(xmlProblems(await readFile(path.join(reportDir, "junit.xml"), "utf8"))).toEqual([]);
    expect(await readFile(path.join(reportDir, "summary.md"), "utf8")).toContain("sustained");
  });

  it("scrubs a secret that reached a report, and warns that it did", async ({ tmpDir, prepare }) => {
    const reportDir = path.join(tmpDir, "report");
    const { prepared } = await prepare(
      checkedLoad("sustained", { rate: "2", duration: "5s" }, { reportDir }),
    );
    const secret = prepared.sandbox?.clients[0]?.clientSecret as string;
    await writeFile(path.join(reportDir, "summary.md"), `a report that holds ${secret} by mistake\n`);
    const out = capturedIo();
    await recordLoad(
      prepared,
      execution({ ending: { kind: "undecided", reason: "k6 exited with 1" } }),
      out.io,
    );
    expect(out.stderr()).toContain("event-harness: warning: redacted secrets found in summary.md\n");
    expect(await readFile(path.join(reportDir, "summary.md"), "utf8")).toBe(
      "a report that holds <CLIENT_SECRET> by mistake\n",
    );
    expect(out.stdout()).toContain("Reports: ");
    expect(out.stdout()).toMatch(/report\/summary\.md, run\.json\n$/);
  });
});
