import { readFile } from "node:fs/promises";
import path from "node:path";
import { capacitySummary, QUICK_SEARCH } from "../../support/capacity-runs.ts";
import { describe, expect } from "../../support/fixtures.ts";
import { junitCases } from "../../support/junit-cases.ts";
import { beforeAllK6, loadTest as it, targetOf } from "../../support/load-runs.ts";

/** Two capacity searches of a minute or two each on a busy machine. */
const SEARCH_TIMEOUT_MS = 300_000;

beforeAllK6();

it.afterAll(({ loads }) => {
  for (const secret of loads.secrets)
    for (const output of loads.outputs) expect(output).not.toContain(secret);
});

describe("load capacity against its baseline", () => {
  it(
    "keeps the capacity as a baseline, and reads a target that lost a third of it as REGRESSED (exit 1)",
    async ({ loads, sandbox }) => {
      // Two deployments of the same API: the baseline's serves 60 events/s, the candidate's 40.
      const credential = loads.client("capacity");
      const before = targetOf(await sandbox({ expiresIn: 5, clients: [credential], throughputLimit: 60 }));
      const after = targetOf(await sandbox({ expiresIn: 5, clients: [credential], throughputLimit: 40 }));
      const baselineFile = path.join(await loads.reportDir(), "capacity-baseline.json");
      const first = await loads.run(
        ["capacity", ...before.args, ...QUICK_SEARCH, "--rate", "30", "--save-baseline", baselineFile],
        before.env,
      );
      expect(first.code, first.stdout + first.stderr).toBe(0);
      expect(first.stderr).toContain("baseline saved to");
      const saved = JSON.parse(await readFile(baselineFile, "utf8")) as { capacity: { held: number } };
      expect(saved.capacity.held).toBe((await capacitySummary(first)).harness.capacity.held);
      const second = await loads.run(
        ["capacity", ...after.args, ...QUICK_SEARCH, "--rate", "30", "--baseline", baselineFile],
        after.env,
      );
      expect(second.code, second.stdout + second.stderr).toBe(1);
      expect(second.stdout).toMatch(/REGRESSED\s+capacity \(highest rate held\)/);
      expect((await capacitySummary(second)).harness.verdictLine).toMatch(
        /^FAILED: capacity \d+ events\/s .*; baseline REGRESSED \(capacity -\d+\/s\)/,
      );
      const junit = junitCases(await readFile(path.join(second.reportDir, "junit.xml"), "utf8"));
      expect(
        junit.find((c) => c.name === "capacity" && c.classname === "load.capacity.baseline")?.failure
          ?.message,
      ).toMatch(/^REGRESSED: baseline \d+\/s held/);
    },
    SEARCH_TIMEOUT_MS,
  );
});
