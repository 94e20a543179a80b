import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { executePart } from "../../../cli/run/execute-part.ts";
import type { PartPlan } from "../../../cli/run/part-plan.ts";
import { capturedIo } from "../../support/command-io.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

function rotationPlan(runDir: string, options: Record<string, string> = {}): PartPlan {
  return {
    id: "rotation",
    kind: "rotation",
    title: "Credential rotation",
    command: "verify-rotation",
    options: {
      "expect-old": "refused",
      "expect-old-tokens": "valid",
      "report-dir": path.join(runDir, "rotation"),
      ...options,
    },
  };
}

describe("executePart", () => {
  it("runs the part's pipeline, its output indented under the run's, and returns its outcome", async ({
    tmpDir,
  }) => {
    const { io, stdout: out } = capturedIo();
    const outcome = await executePart(rotationPlan(tmpDir), {
      io,
      env: {},
      runDir: tmpDir,
      external: undefined,
    });
    expect(outcome).toMatchObject({
      id: "rotation",
      kind: "rotation",
      title: "Credential rotation",
      verdict: "passed",
      exitCode: 0,
    });
    expect(outcome.note).toBeUndefined();
    expect(outcome.command).toMatch(/^npx --no-install event-harness verify-rotation /);
    expect(Number.isNaN(Date.parse(outcome.startedAt))).toBe(false);
    const lines = out()
      .split("\n")
      .filter((line) => line !== "");
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((line) => !line.startsWith("│ "))).toEqual([]);
    expect(await readdir(path.join(tmpDir, "rotation"))).toContain("results.json");
  });

  it("turns a part that cannot run into an outcome with the reason, never a throw", async ({ tmpDir }) => {
    const { io, stderr: err } = capturedIo();
    const outcome = await executePart(rotationPlan(tmpDir, { "expect-old": "maybe" }), {
      io,
      env: {},
      runDir: tmpDir,
      external: undefined,
    });
    expect(outcome.exitCode).toBe(2);
    expect(outcome.verdict).not.toBe("passed");
    expect(outcome.note).toBe("could not run: --expect-old takes one of refused, accepted, got 'maybe'");
    expect(err()).toBe(
      "│ event-harness: rotation: could not run: --expect-old takes one of refused, accepted, got 'maybe'\n",
    );
  });

  it("runs nothing once the run is interrupted", async ({ tmpDir }) => {
    const controller = new AbortController();
    controller.abort();
    const { io, stdout: out, stderr: err } = capturedIo({}, controller.signal);
    const outcome = await executePart(rotationPlan(tmpDir), {
      io,
      env: {},
      runDir: tmpDir,
      external: undefined,
    });
    expect(outcome).toMatchObject({
      verdict: "skipped",
      exitCode: null,
      durationMs: 0,
      note: "not run: the run was interrupted",
    });
    expect(out() + err()).toBe("");
    await expect(stat(path.join(tmpDir, "rotation"))).rejects.toThrow(/ENOENT/);
  });
});
