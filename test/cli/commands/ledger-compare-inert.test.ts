import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareCommand } from "../../../cli/commands/compare.ts";
import { contractCommand } from "../../../cli/commands/contract.ts";
import { runInProcess } from "../../support/run-in-process.ts";

// Ledgers and result files are input files: their text is shown inert on the console and in every report.
/** A screen clear, a BEL, CR/LF, workflow commands (new and legacy), a bidi override. */
const HOSTILE = "\u001b[2J\u0007\r\n::error::forged\n  ::add-mask::x ##[stop-commands]t \u202e";
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching these characters is the point.
const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202e]/;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "eah-ledger-compare-inert-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** No raw control, no line a GitHub runner would read as a workflow command. */
function commandsIn(text: string): string[] {
  return text.split("\n").filter((line) => /^\s*::|##\[/.test(line));
}

function expectInert(name: string, text: string): void {
  expect(CONTROLS.test(text), `${name}: ${JSON.stringify(text)}`).toBe(false);
  expect(commandsIn(text), name).toEqual([]);
}

describe("a ledger's reason and ticket", () => {
  it("are inert on the console and in every report of a contract run they waive", async () => {
    const ledger = join(dir, "ledger.json");
    await writeFile(
      ledger,
      JSON.stringify({
        accepted: [
          {
            id: "bearer.alg-none",
            reason: `legacy ${HOSTILE}`,
            ticket: `API-7${HOSTILE}`,
            expires: "2999-12-31",
          },
          { id: "bearer.missing", reason: `stale ${HOSTILE}`, ticket: HOSTILE, expires: "2999-12-31" },
        ],
      }),
    );
    const reports = join(dir, "contract");
    const run = await runInProcess(contractCommand, [
      "--only",
      "bearer.alg-none,bearer.missing",
      "--sandbox-fault",
      "bearer-alg-none",
      "--accepted",
      ledger,
      "--report-dir",
      reports,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("WAIVED");
    expectInert("stdout", run.stdout);
    expectInert("stderr", run.stderr);
    for (const file of await readdir(reports)) {
      expectInert(file, await readFile(join(reports, file), "utf8"));
    }
  });
});

describe("compare", () => {
  it("shows the check ids and statuses of result files inert", async () => {
    const base = join(dir, "base.json");
    const candidate = join(dir, "candidate.json");
    await writeFile(base, JSON.stringify({ checks: [{ id: `x${HOSTILE}`, status: "PASS" }] }));
    await writeFile(
      candidate,
      JSON.stringify({
        checks: [
          { id: `x${HOSTILE}`, status: `FAIL${HOSTILE}` },
          { id: "::error::forged", status: "FAIL" },
          { id: "  ::add-mask::x", status: "##[error]y" },
        ],
      }),
    );
    const run = await runInProcess(compareCommand, [base, candidate]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain("newly failing");
    expectInert("stdout", run.stdout);
    expectInert("stderr", run.stderr);
  });

  it("says a result file that is not JSON without obeying what it holds", async () => {
    const broken = join(dir, "broken.json");
    await writeFile(broken, `{"checks": ${HOSTILE}`);
    const run = await runInProcess(compareCommand, [broken, broken]);
    expect(run.code).toBe(2);
    expectInert("stderr", run.stderr);
  });
});
