import { writeFile } from "node:fs/promises";
import path from "node:path";
import { PassThrough } from "node:stream";
import type { CommandIo } from "../../../cli/command.ts";
import { runCompare } from "../../../cli/compare/run-compare.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import type { UnitShape } from "../../support/load-record-fixture.ts";
import { loadRecord, steady } from "../../support/load-record-fixture.ts";

function capture(signal: AbortSignal = new AbortController().signal) {
  const stdout = new PassThrough().setEncoding("utf8");
  const stderr = new PassThrough().setEncoding("utf8");
  const io: CommandIo = { stdout, stderr, env: {}, signal };
  return {
    io,
    stdout: () => String(stdout.read() ?? ""),
    stderr: () => String(stderr.read() ?? ""),
  };
}

async function writeJson(dir: string, name: string, value: unknown): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, JSON.stringify(value));
  return file;
}

const contractRun = (statuses: Readonly<Record<string, string>>) => ({
  profile: "fast",
  target: { clientId: "shop", baseUrl: "https://api.example.com", embedded: false },
  checks: Object.entries(statuses).map(([id, status]) => ({ id, status })),
});

async function loadPair(dir: string, candidate: readonly UnitShape[], settings = {}) {
  return {
    base: await writeJson(dir, "base.json", loadRecord(1, steady(40, 2))),
    candidate: await writeJson(dir, "candidate.json", loadRecord(2, candidate, { settings })),
  };
}

describe("runCompare", () => {
  it("fails (exit 1) two contract runs where a check newly fails, and names it", async ({ tmpDir }) => {
    const base = await writeJson(
      tmpDir,
      "a.json",
      contractRun({ "token.issued": "PASS", "bearer.missing": "PASS" }),
    );
    const candidate = await writeJson(
      tmpDir,
      "b.json",
      contractRun({ "token.issued": "PASS", "bearer.missing": "FAIL" }),
    );
    const out = capture();
    expect(await runCompare(base, candidate, {}, out.io)).toBe(1);
    const lines = out.stdout().split("\n");
    expect(lines[0]).toBe(`${base} → ${candidate}`);
    expect(lines[1]).toBe("  Contract comparison: REGRESSED");
    expect(lines).toContain("      bearer.missing: PASS → FAIL");
  });

  it("passes (exit 0) two contract runs where a check is fixed, and prints a hostile id inert", async ({
    tmpDir,
  }) => {
    const hostile = "token.x\u001b[2J\n::error::forged";
    const base = await writeJson(tmpDir, "a.json", contractRun({ [hostile]: "FAIL" }));
    const candidate = await writeJson(tmpDir, "b.json", contractRun({ [hostile]: "PASS" }));
    const out = capture();
    expect(await runCompare(base, candidate, {}, out.io)).toBe(0);
    const text = out.stdout();
    expect(text).toContain("  Contract comparison: no check newly fails");
    expect(text).not.toContain("\u001b");
    expect(text.split("\n").some((line) => line.startsWith("::error::"))).toBe(false);
  });

  it("judges a load candidate whose latency grew tenfold regressed (exit 1), and one as fast not", async ({
    tmpDir,
  }) => {
    const slow = await loadPair(tmpDir, steady(40, 20));
    const out = capture();
    expect(await runCompare(slow.base, slow.candidate, {}, out.io)).toBe(1);
    const text = out.stdout();
    expect(text.split("\n")[0]).toBe(slow.candidate);
    expect(text).toContain("REGRESSED");

    const same = await loadPair(tmpDir, steady(40, 2));
    const again = capture();
    expect(await runCompare(same.base, same.candidate, {}, again.io)).toBe(0);
    expect(again.stdout()).not.toContain("REGRESSED");
  });

  it("refuses load runs with other settings, and a load run against a contract run (exit 2's code)", async ({
    tmpDir,
  }) => {
    const other = await loadPair(tmpDir, steady(40, 2), { rate: 60 });
    await expect(runCompare(other.base, other.candidate, {}, capture().io)).rejects.toMatchObject({
      code: "invalid-config",
      message: expect.stringMatching(/^cannot compare runs with different load settings \(.*rate.*\)/),
    });
    const contract = await writeJson(tmpDir, "c.json", contractRun({ "token.issued": "PASS" }));
    await expect(runCompare(other.base, contract, {}, capture().io)).rejects.toMatchObject({
      code: "invalid-config",
      command: "compare",
      message: `cannot compare a load run (${other.base}) with a contract run (${contract})`,
    });
  });

  it("checks its options before reading any file", async ({ tmpDir }) => {
    const missing = path.join(tmpDir, "missing.json");
    await expect(runCompare(missing, missing, { window: "0s" }, capture().io)).rejects.toMatchObject({
      message: "--window takes a duration of at least 1s, got '0s'",
    });
    await expect(runCompare(missing, missing, {}, capture().io)).rejects.toMatchObject({
      message: `${missing} does not exist`,
    });
  });

  it("says in one line that it was interrupted (exit 3) when the signal came before the judgement", async ({
    tmpDir,
  }) => {
    const pair = await loadPair(tmpDir, steady(40, 2));
    const controller = new AbortController();
    controller.abort(new Error("received SIGTERM"));
    const out = capture(controller.signal);
    expect(await runCompare(pair.base, pair.candidate, {}, out.io)).toBe(3);
    expect(out.stderr()).toBe(
      "event-harness compare: interrupted (received SIGTERM) before the comparison was judged\n",
    );
    expect(out.stdout()).toBe("");
  });
});
