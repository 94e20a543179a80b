import { setTimeout as sleep } from "node:timers/promises";
import fc from "fast-check";
import type { Judgement, PropertyDefinition } from "../../../contracts/checks/property-run.ts";
import {
  inputsDrawnAtMost,
  MAX_SHRINK_STEPS,
  replayPathProblem,
  runProperty,
} from "../../../contracts/checks/property-run.ts";
import type { FuzzSettings } from "../../../contracts/index.ts";
import { UndecidableError } from "../../../core/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { idleProbe } from "../../support/idle-probe.ts";

const settings = (overrides: Partial<FuzzSettings> = {}): FuzzSettings => ({
  seed: 3,
  runs: 25,
  timeLimitMs: 5_000,
  shrinkLimitMs: 5_000,
  runId: "property-run",
  ...overrides,
});

/** Integers, judged as `verdict` says; each judgement counted in `seen`. */
function integers(
  verdict: (value: number) => Judgement | Promise<Judgement>,
  seen: number[] = [],
): PropertyDefinition<number> {
  return {
    checkId: "inputs.synthetic",
    arbitrary: fc.integer({ min: 0, max: 1_000_000_000 }),
    async judge(value, _probe, shown) {
      seen.push(value);
      shown({ what: `the integer ${value}`, contentType: "text/plain", body: String(value) });
      return verdict(value);
    },
  };
}

const broken: Judgement = { verdict: "broken", said: "received 500", serverError: true };
const holds: Judgement = { verdict: "holds" };
const rateLimited: Judgement = { verdict: "not-judged", why: "the target answered 429 (too many requests)" };

describe("replayPathProblem: a replay path is what a search of --fuzz-runs inputs can report", () => {
  const K = "customer.email/idna-u-label";
  it("accepts a class alone, and a path whose first input a search of --fuzz-runs can draw, refusing the next one", () => {
    expect(inputsDrawnAtMost(25)).toBe(275);
    expect(replayPathProblem(K, 25)).toBeUndefined();
    expect(replayPathProblem(`${K}:274`, 25)).toBeUndefined();
    expect(replayPathProblem(`${K}:275:3:0`, 25)).toBe(
      `--fuzz-replay ${K}:275:3:0 starts at input 276, past the 275 a search of --fuzz-runs 25 can draw (25 judged, ` +
        "each after at most 10 answered 429): give the --fuzz-runs of the run that found it",
    );
    expect(replayPathProblem(`${K}:0`, 0)).toMatch(/past the 0 a search of --fuzz-runs 0 can draw/);
  });

  it(`accepts ${MAX_SHRINK_STEPS} shrink steps, and refuses one more however it is spelled`, () => {
    expect(replayPathProblem(`${K}:0:${MAX_SHRINK_STEPS - 1}`, 25)).toBeUndefined();
    expect(replayPathProblem(`${K}:0${":0".repeat(MAX_SHRINK_STEPS)}`, 25)).toBeUndefined();
    expect(replayPathProblem(`${K}:0:${MAX_SHRINK_STEPS}`, 25)).toMatch(
      new RegExp(
        `walks ${MAX_SHRINK_STEPS + 1} shrink steps, past the ${MAX_SHRINK_STEPS} a check takes at most`,
      ),
    );
    expect(replayPathProblem(`${K}:0${":0".repeat(MAX_SHRINK_STEPS + 1)}`, 25)).toMatch(
      new RegExp(
        `^--fuzz-replay ${K}:0(:0){5}:… \\(${2 * MAX_SHRINK_STEPS + 3 + K.length + 1} characters\\) walks more than `,
      ),
    );
  });

  it("refuses numbers past what JavaScript counts exactly, quoting a long path cut short", () => {
    const huge = "9".repeat(100_000);
    const problem = replayPathProblem(`${K}:${huge}`, 100_000) as string;
    expect(problem).toMatch(
      new RegExp(
        `^--fuzz-replay ${K}:9{12}… \\(100028 characters\\) starts at input past 10\\^15, past the `,
      ),
    );
    expect(problem.length).toBeLessThan(300);
    expect(replayPathProblem(`${K}:0:${huge}`, 25)).toMatch(/ walks Infinity| walks more than/);
  });
});

describe("runProperty: a limit stops new inputs, never the one in flight", () => {
  it("awaits an input in flight past the time limit and judges its answer: a late failure still fails", async () => {
    const seen: number[] = [];
    const outcome = await runProperty(
      idleProbe(),
      settings({ timeLimitMs: 20, shrinkLimitMs: 20 }),
      integers(() => sleep(100).then(() => broken), seen),
    );
    expect(outcome).toMatchObject({ kind: "failed", run: 1, shrinkInterrupted: true });
    // The search's one input, the shrinking's replay of it: each step sends its first input, then stops.
    expect(seen).toHaveLength(2);
  });

  it("a search that judged nothing but 429s is undecided, never a PASS or a SKIP", async () => {
    const outcome = runProperty(
      idleProbe(),
      settings({ timeLimitMs: 20 }),
      integers(() => sleep(30).then(() => rateLimited)),
    );
    await expect(outcome).rejects.toThrow(UndecidableError);
    await expect(outcome).rejects.toThrow(
      /^every input sent was answered 429 \(too many requests\): 1 not judged$/,
    );
  });

  it("stops shrinking at the step cap, and the path it reports replays within it", async () => {
    const seen: number[] = [];
    // Fails from 1000 up: shrinking to 1000 takes dozens of steps.
    const failsFrom1000 = (value: number) => (value >= 1000 ? broken : holds);
    const capped = await runProperty(idleProbe(), settings(), integers(failsFrom1000, seen), 5);
    expect(capped).toMatchObject({ kind: "failed", shrinkCapped: true, shrinkInterrupted: false });
    const path = (capped as { path: string }).path;
    const steps = path
      .split(":")
      .slice(1)
      .reduce((sum, index) => sum + Number(index) + 1, 0);
    expect(steps).toBeLessThanOrEqual(5);
    // The search's inputs, then the replay of the failure and at most 5 candidates.
    expect(seen.length - (capped as { run: number }).run).toBeLessThanOrEqual(6);

    const shrunk = await runProperty(idleProbe(), settings({ replayPath: path }), integers(failsFrom1000));
    expect(shrunk).toMatchObject({ kind: "failed", shrinkCapped: false, shown: { body: "1000" } });
  });

  it("a replay whose input holds passes on what it judged; one whose path leads nowhere sends nothing", async () => {
    const replayed = await runProperty(
      idleProbe(),
      settings({ replayPath: "4" }),
      integers(() => holds),
    );
    expect(replayed).toEqual({ kind: "held", judged: 1, notJudged: 0, interrupted: false, replayed: "4" });
    const seen: number[] = [];
    const nowhere = await runProperty(
      idleProbe(),
      settings({ replayPath: "4:15000" }),
      integers(() => broken, seen),
    );
    expect(nowhere).toEqual({ kind: "nothing-sent", why: "the path 4:15000 leads to no input of seed 3" });
    expect(seen).toEqual([]);
  });
});
