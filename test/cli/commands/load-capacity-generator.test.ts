import { readFile } from "node:fs/promises";
import path from "node:path";
import { capacitySummary, QUICK_SEARCH } from "../../support/capacity-runs.ts";
import { describe, expect } from "../../support/fixtures.ts";
import { junitCases } from "../../support/junit-cases.ts";
import { beforeAllK6, loadTest as it } from "../../support/load-runs.ts";

beforeAllK6();

describe("load capacity against a target beyond what k6 can drive here", () => {
  it("reports the generator's limit, never a capacity: the search has no verdict (exit 3) and says to add instances", async ({
    loads,
  }) => {
    // The sandbox would serve 100,000 events/s; one k6 process on this machine sends a few thousand at most.
    const run = await loads.run([
      "capacity",
      "--sandbox-throughput",
      "100000",
      "--rate",
      "30000",
      "--max-steps",
      "2",
      "--step-warm-up",
      "1s",
      "--step-duration",
      "3s",
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(3);
    const { harness } = await capacitySummary(run);
    const { held, limitedAt, steps } = harness.capacity;
    // Both attempts at 30,000/s were the generator's: the first is run once more before the search believes it.
    expect(steps.map((s) => [s.rate, s.phase, s.outcome])).toEqual([
      [30_000, "up", "generator"],
      [30_000, "retry", "generator"],
    ]);
    expect(held).toBeNull();
    expect(limitedAt).toBe(30_000);
    expect(harness.result.outcome).toBe("undecided");
    expect(harness.verdictLine).toMatch(
      /^COULD NOT DECIDE: the generator, not the API, limited this search from its first step at 30000\/s \(.*\): use --instances N/,
    );
    expect(run.stderr).toContain("not judged: the generator, not the API, limited it");
    const junit = junitCases(await readFile(path.join(run.reportDir, "junit.xml"), "utf8"));
    expect(junit.find((c) => c.name === "capacity")?.error?.type).toBe("undecided");
    expect(junit.find((c) => c.name === "load generator")?.skipped?.message).toContain(
      "the generator, not the API, limited the step at 30000/s",
    );
    const markdown = await readFile(path.join(run.reportDir, "summary.md"), "utf8");
    expect(markdown).toContain("## Capacity: none held");
    expect(markdown).toContain("## Load generator");
  }, 300_000);
});

describe("load capacity stopped midway", () => {
  it("stops k6 at once, and its reports keep the steps that ran and say ABORTED (exit 3)", async ({
    loads,
  }) => {
    const controller = new AbortController();
    const stopping = setTimeout(() => controller.abort(new Error("received SIGINT")), 12_000);
    const started = Date.now();
    const run = await loads
      .run(["capacity", "--sandbox-throughput", "50", ...QUICK_SEARCH], {}, controller.signal)
      .finally(() => clearTimeout(stopping));
    expect(run.code, run.stdout + run.stderr).toBe(3);
    // k6 had 15 s to stop gracefully after SIGINT; no further step started.
    expect(Date.now() - started).toBeLessThan(60_000);
    const { harness } = await capacitySummary(run);
    expect(harness.result.outcome).toBe("aborted");
    expect(harness.capacity.stop).toBe("aborted");
    expect(harness.capacity.steps.at(-1)?.outcome).toBe("aborted");
    expect(harness.verdictLine).toMatch(/^ABORTED: step \d+ at \d+\/s: interrupted \(received SIGINT\)/);
  }, 120_000);
});
