import { writeFile } from "node:fs/promises";
import path from "node:path";
import { compareCommand } from "../../../cli/commands/compare.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { runInProcess } from "../../support/run-in-process.ts";

interface RunShape {
  readonly profile: string;
  readonly clientId: string;
  readonly baseUrl: string;
  readonly embedded?: boolean;
  readonly checks: Record<string, string>;
}

/** A contract results.json as the contract command writes it (the parts compare reads). */
async function results(dir: string, name: string, run: RunShape): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(
    file,
    JSON.stringify({
      tool: { name: "event-api-harness", version: "0.1.0" },
      suite: `contract (${run.profile})`,
      profile: run.profile,
      verdict: "passed",
      target: {
        tokenUrl: `${run.baseUrl}/oauth/token`,
        baseUrl: run.baseUrl,
        clientId: run.clientId,
        embedded: run.embedded ?? false,
      },
      checks: Object.entries(run.checks).map(([id, status]) => ({ id, status })),
    }),
  );
  return file;
}

describe("compare of contract runs", () => {
  it("names differing profiles, clients and targets, and calls a check absent from the baseline newly run", async ({
    tmpDir: dir,
  }) => {
    const fast = await results(dir, "fast.json", {
      profile: "fast",
      clientId: "ci-a",
      baseUrl: "https://api.staging.example.com",
      checks: { "token.issued": "PASS", "bearer.missing": "PASS" },
    });
    const full = await results(dir, "full.json", {
      profile: "full",
      clientId: "ci-b",
      baseUrl: "https://api.green.example.com",
      checks: { "token.issued": "PASS", "bearer.missing": "PASS", "lifetime.sliding": "FAIL" },
    });
    const run = await runInProcess(compareCommand, [fast, full], {});
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(
      "The runs differ: profile fast → full; client ci-a → ci-b; target https://api.staging.example.com → https://api.green.example.com",
    );
    expect(run.stdout).toContain("newly failing: 0");
    expect(run.stdout).toContain("newly run: 1\n      lifetime.sliding: not run → FAIL");
    expect(run.stdout).not.toContain("REGRESSED");
  });

  it("still fails on a check that ran in both and fails only now, and says nothing of a difference when there is none", async ({
    tmpDir: dir,
  }) => {
    const shape = { profile: "full", clientId: "ci", baseUrl: "https://api.example.com" };
    const before = await results(dir, "before.json", {
      ...shape,
      checks: { "a.one": "PASS", "b.two": "PASS" },
    });
    const after = await results(dir, "after.json", { ...shape, checks: { "a.one": "FAIL" } });
    const run = await runInProcess(compareCommand, [before, after], {});
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("newly failing: 1\n      a.one: PASS → FAIL");
    expect(run.stdout).toContain("no longer run: 1\n      b.two: PASS → not run");
    expect(run.stdout).not.toContain("The runs differ");
  });
});
