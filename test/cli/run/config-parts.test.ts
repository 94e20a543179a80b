import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runCommand } from "../../../cli/commands/run.ts";
import { it as base, describe, expect } from "../../support/fixtures.ts";
import { runInProcess } from "../../support/run-in-process.ts";

// A config file's profile, scenarios and thresholds are settings of the parts that use them: a run of other parts leaves them be.
const it = base.extend("config", async ({ tmpDir }) => {
  const config = join(tmpDir, "harness.json");
  await writeFile(
    config,
    JSON.stringify({
      environments: {
        embedded: { profile: "fast", scenarios: ["sustained=5s"], thresholds: ["events_failed=rate<0.05"] },
      },
    }),
  );
  return config;
});

describe("run --config with a profile and scenarios", () => {
  it("runs only the rotation part: the file's contract profile and load scenarios are not misplaced flags", async ({
    tmpDir: dir,
    config,
  }) => {
    const reports = join(dir, "rotation-only");
    const run = await runInProcess(runCommand, [
      "--config",
      config,
      "-e",
      "embedded",
      "--parts",
      "rotation",
      "--quiet",
      "--report-dir",
      reports,
    ]);
    expect(run.stderr).not.toContain("needs the contract part");
    expect(run.stderr).not.toContain("need the load part");
    expect(run.code).toBe(0);
    const written = JSON.parse(await readFile(join(reports, "run.json"), "utf8")) as {
      parts: Array<{ kind: string }>;
    };
    expect(written.parts.map((part) => part.kind)).toEqual(["rotation"]);
  });

  it("still refuses --profile and --scenario given on the command line for parts that do not run", async ({
    tmpDir: dir,
    config,
  }) => {
    const run = await runInProcess(runCommand, [
      "--config",
      config,
      "-e",
      "embedded",
      "--parts",
      "rotation",
      "--profile",
      "full",
      "--scenario",
      "idle-gap",
      "--report-dir",
      join(dir, "refused"),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--profile needs the contract part");
    expect(run.stderr).toContain("--scenario and --rate need the load part");
  });
});
