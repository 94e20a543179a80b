import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { compareCommand } from "../../../cli/commands/compare.ts";
import { contractCommand } from "../../../cli/commands/contract.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { runInProcess } from "../../support/run-in-process.ts";

// Ledgers and result files are input files: their text is shown inert on the console and in every report.
/** A screen clear, a BEL, CR/LF, workflow commands (new and legacy), a bidi override. */
const HOSTILE = "\u001b[2J\u0007\r\n::error::forged\n  ::add-mask::x ##[stop-commands]t \u202e";
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching these characters is the point.
const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202e]/;
/** A date an entry may name: within a year of today (a later one is refused). */
const IN_FORCE = new Date(Date.now() + 300 * 86_400_000).toISOString().slice(0, 10);

/** No raw control, no line a GitHub runner would read as a workflow command. */
function commandsIn(text: string): string[] {
  return text.split("\n").filter((line) => /^\s*::|##\[/.test(line));
}

function expectInert(name: string, text: string): void {
  expect(CONTROLS.test(text), `${name}: ${JSON.stringify(text)}`).toBe(false);
  expect(commandsIn(text), name).toEqual([]);
}

describe("a ledger's reason and ticket", () => {
  it("are inert on the console and in every report of a contract run they waive", async ({ tmpDir: dir }) => {
    const ledger = join(dir, "ledger.json");
    await writeFile(
      ledger,
      JSON.stringify({
        accepted: [
          {
            id: "token.response-schema",
            reason: `legacy ${HOSTILE}`,
            ticket: `API-7${HOSTILE}`,
            expires: IN_FORCE,
          },
          { id: "token.signed", reason: `stale ${HOSTILE}`, ticket: HOSTILE, expires: IN_FORCE },
        ],
      }),
    );
    const reports = join(dir, "contract");
    const run = await runInProcess(contractCommand, [
      "--only",
      "token.response-schema,token.signed",
      "--sandbox-fault",
      "token-type-mac",
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
  it("shows the check ids and statuses of result files inert", async ({ tmpDir: dir }) => {
    const base = join(dir, "base.json");
    const candidate = join(dir, "candidate.json");
    // Each id ran in the baseline too, so a FAIL now is newly failing (a check newly run is only listed).
    await writeFile(
      base,
      JSON.stringify({
        checks: [
          { id: `x${HOSTILE}`, status: "PASS" },
          { id: "::error::forged", status: "PASS" },
          { id: "  ::add-mask::x", status: "PASS" },
        ],
      }),
    );
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

  it("says a result file that is not JSON without obeying what it holds", async ({ tmpDir: dir }) => {
    const broken = join(dir, "broken.json");
    await writeFile(broken, `{"checks": ${HOSTILE}`);
    const run = await runInProcess(compareCommand, [broken, broken]);
    expect(run.code).toBe(2);
    expectInert("stderr", run.stderr);
  });
});
