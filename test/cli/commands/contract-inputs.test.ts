import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { contractCommand } from "../../../cli/commands/contract.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { runInProcess } from "../../support/run-in-process.ts";

const run = (args: string[]) => runInProcess(contractCommand, args);

describe("event-harness contract: the property-based stage (area inputs)", () => {
  it("fails the run on an input bug, prints the minimal input and the options that replay it, which do", async ({
    tmpDir: reports,
  }) => {
    const dir = join(reports, "found");
    const found = await run([
      "--only",
      "inputs.valid-accepted",
      "--seed",
      "5",
      "--sandbox-fault",
      "events-5xx-quote-reference",
      "--report-dir",
      dir,
    ]);
    expect(found.code).toBe(1);
    const replay =
      /replay with (--seed 5 --only inputs\.valid-accepted --fuzz-runs 25 --fuzz-replay [A-Za-z0-9./:-]+)/.exec(
        found.stdout,
      )?.[1];
    expect(replay).toBeDefined();
    const results = JSON.parse(await readFile(join(dir, "results.json"), "utf8"));
    const first = results.checks[0].counterexample;
    expect(first).toMatchObject({ seed: 5, replay });
    expect(await readFile(join(dir, "summary.md"), "utf8")).toContain("Minimal input:");
    expect(await readFile(join(dir, "junit.xml"), "utf8")).toContain("Minimal input:");

    const againDir = join(reports, "replayed");
    const again = await run([
      ...(replay as string).split(" "),
      "--sandbox-fault",
      "events-5xx-quote-reference",
      "--report-dir",
      againDir,
    ]);
    expect(again.code).toBe(1);
    const replayed = JSON.parse(await readFile(join(againDir, "results.json"), "utf8")).checks[0]
      .counterexample;
    const unstemmed = (input: string) => input.replace(/eah-fz-[0-9a-z]{7}-[a-z][0-9a-z]{5}-/g, "eah-fz-…-");
    expect(unstemmed(replayed.input)).toBe(unstemmed(first.input));
  });

  it("--fuzz-runs 0 sends nothing: every property-based check is SKIP and the run passes", async ({
    tmpDir: reports,
  }) => {
    const result = await run(["--only", "inputs", "--fuzz-runs", "0", "--report-dir", join(reports, "none")]);
    expect(result.code).toBe(0);
    expect(result.stdout.match(/SKIP\s+inputs\./g)).toHaveLength(13);
  });

  it.for([
    [["--fuzz-runs", "-1"], /--fuzz-runs takes a whole number from 0/],
    [["--fuzz-time", "0"], /--fuzz-time takes a number from 1/],
    [
      ["--only", "inputs.valid-accepted", "--fuzz-replay", "event/every-field-wide:3:1"],
      /--fuzz-replay needs the --seed/,
    ],
    [
      ["--seed", "1", "--only", "inputs", "--fuzz-replay", "event/every-field-wide:3:1"],
      /exactly one property-based check \(selected: /,
    ],
    [
      ["--seed", "1", "--only", "token", "--fuzz-replay", "event/every-field-wide:3:1"],
      /exactly one property-based check \(none/,
    ],
    [
      ["--seed", "1", "--only", "inputs.valid-accepted", "--fuzz-replay", "3:1"],
      /takes a class and a path such as customer\.email\/idna-u-label:17:3:0, or a class alone/,
    ],
  ] as const)("%j is a usage error (exit 2)", async ([args, message], { tmpDir }) => {
    const result = await run([...args, "--report-dir", join(tmpDir, "usage")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  // Walking a path costs CPU before anything is sent: one no run can report is refused before the run starts.
  const replay = ["--seed", "1", "--only", "inputs.valid-accepted"];
  it.for([
    [
      "an input past what --fuzz-runs draws",
      [...replay, "--fuzz-replay", "event/every-field-wide:99999999999"],
      /--fuzz-replay event\/every-field-wide:99999999999 starts at input 100000000000, past the 275 a search of --fuzz-runs 25 can draw .*: give the --fuzz-runs of the run that found it \[invalid-value\]\n/,
    ],
    [
      "an input past what the given --fuzz-runs draws",
      [...replay, "--fuzz-runs", "200", "--fuzz-replay", "event/every-field-wide:2200:0"],
      /starts at input 2201, past the 2200 a search of --fuzz-runs 200 can draw/,
    ],
    [
      "more shrink steps than a check takes",
      [...replay, "--fuzz-replay", `event/every-field-wide:3${":0".repeat(25_000)}`],
      /--fuzz-replay event\/every-field-wide:3(:0){8}… \(50024 characters\) walks more than 20000 shrink steps, past the 20000 a check takes at most: no run reports such a path \[invalid-value\]\n/,
    ],
    [
      "a megabyte of digits",
      [...replay, "--fuzz-replay", `event/every-field-wide:${"9".repeat(1 << 20)}`],
      /--fuzz-replay event\/every-field-wide:9{17}… \(1048599 characters\) starts at input past 10\^15/,
    ],
  ] as const)(
    "a replay path of %s is a usage error (exit 2), sent nothing",
    async ([, args, message], { tmpDir }) => {
      const result = await run([...args, "--report-dir", join(tmpDir, "usage")]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.length).toBeLessThan(1_000);
    },
  );
});
