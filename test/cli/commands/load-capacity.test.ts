import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { capacitySummary, QUICK_SEARCH } from "../../support/capacity-runs.ts";
import { describe, expect } from "../../support/fixtures.ts";
import { junitCases } from "../../support/junit-cases.ts";
import { beforeAllK6, loadTest as it } from "../../support/load-runs.ts";

/** A capacity search takes a minute or two of real k6 steps on a busy machine. */
const SEARCH_TIMEOUT_MS = 300_000;

beforeAllK6();

it.afterAll(({ loads }) => {
  for (const secret of loads.secrets)
    for (const output of loads.outputs) expect(output).not.toContain(secret);
});

describe("load capacity against a target whose capacity is known", () => {
  it(
    "finds a low capacity (50 events/s) within ±10 %, with the rate broken, what broke it, and every step",
    async ({ loads }) => {
      const run = await loads.run(["capacity", "--sandbox-throughput", "50", ...QUICK_SEARCH]);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const { harness } = await capacitySummary(run);
      const { held, broken, steps } = harness.capacity;
      expect(held).toBeGreaterThanOrEqual(45);
      expect(held).toBeLessThanOrEqual(55);
      expect(broken?.rate).toBeGreaterThan(held ?? 0);
      expect(broken?.by.map((b) => b.metric).join(" ")).toMatch(
        /http_req_duration|events_failed|dropped_iterations/,
      );
      // Up by the factor until a step broke, then bisecting; no step above the bracket counted as held.
      expect(steps[0]).toMatchObject({ rate: 20, phase: "up", outcome: "held" });
      expect(steps.some((s) => s.phase === "bisect")).toBe(true);
      for (const s of steps) if (s.outcome === "held") expect(s.rate).toBeLessThanOrEqual(held ?? 0);
      for (const s of steps)
        if (s.outcome === "held" || s.outcome === "broken") expect(s.events).toBeGreaterThanOrEqual(190);
      expect(harness.verdictLine).toMatch(/^PASSED: capacity \d+ events\/s \(\d+\/s broke /);
      // Every report states it: summary.md, JUnit, the console and the chart.
      const markdown = await readFile(path.join(run.reportDir, "summary.md"), "utf8");
      expect(markdown).toContain(`## Capacity: ${held} events/s`);
      expect(markdown).toContain(`- First rate broken: **${broken?.rate} events/s**, by `);
      const junit = junitCases(await readFile(path.join(run.reportDir, "junit.xml"), "utf8"));
      expect(junit.filter((c) => c.classname === "load.capacity.steps")).toHaveLength(steps.length);
      expect(junit.find((c) => c.name === "capacity")?.failure).toBeUndefined();
      expect(run.stdout).toContain(`CAPACITY: ${held} events/s`);
      const html = await readFile(path.join(run.reportDir, "capacity.html"), "utf8");
      expect(html).toContain(`data-series="p95" data-points="${steps.filter((s) => s.events > 0).length}"`);
      expect(html).toContain("p90 objective &lt; 300 ms");
      // Each step kept its own k6 output.
      await expect(stat(path.join(run.reportDir, "steps", `01-20`, "summary.json"))).resolves.toBeTruthy();
    },
    SEARCH_TIMEOUT_MS,
  );
});
