import { describe, expect, it } from "vitest";
import type { Resolution } from "../../../load/index.ts";
import type { Ledger } from "../../../reporting/accepted/index.ts";
import { violationsOf } from "../../../reporting/load/capacity-result.ts";
import type { CapacityStepResult, GeneratorVerdict, ThresholdResult } from "../../../reporting/load/index.ts";
import {
  brokenByText,
  capacityClause,
  capacityFigure,
  capacityLoadResult,
  describeResult,
  describeStop,
  searchedSteps,
} from "../../../reporting/load/index.ts";

const ASKED: Resolution = { kind: "relative", value: 0.1 };
const keptUp: GeneratorVerdict = { limited: false, signals: [], measured: "k6 kept up." };
const limitedGenerator: GeneratorVerdict = {
  limited: true,
  signals: [{ kind: "cpu", remedy: "instances", short: "k6 at 97 % of its 2 CPUs", detail: "k6 used 97 %." }],
  measured: "k6 used 97 % of its 2 CPUs.",
};
const REMEDY = "use --instances N (more k6 processes), or run k6 on a machine of its own (k6-operator)";
const slow: ThresholdResult = {
  metric: "http_req_duration{endpoint:events,scenario:capacity}",
  expression: "p(95)<500",
  ok: false,
  observed: "p(95)=812ms",
};
const unexpected: ThresholdResult = {
  metric: "token_expiries{kind:unexpected}",
  expression: "count==0",
  ok: false,
  observed: "count=2",
};

function step(
  index: number,
  rate: number,
  outcome: CapacityStepResult["outcome"],
  extra: Partial<CapacityStepResult> = {},
): CapacityStepResult {
  return {
    index,
    rate,
    phase: "up",
    warmUpSeconds: 2,
    judgedSeconds: 4,
    plannedIterations: rate * 4,
    maxVus: 50,
    dir: `steps/${index}`,
    outcome,
    reason: undefined,
    brokenBy: outcome === "broken" ? [slow] : [],
    violations: [],
    events: rate * 4,
    accepted: rate * 4,
    acceptedPerSecond: rate,
    failureRate: 0,
    latency: { p50: 2, p95: 5, p99: 8, avg: 3 },
    dropped: 0,
    generator: outcome === "generator" ? limitedGenerator : keptUp,
    k6CpuShare: 0.3,
    expiry: { unexpected: 0, outlived: 0, extended: 0 },
    ...extra,
  };
}

describe("searchedSteps", () => {
  it("keeps each rate's latest verdict and leaves steps without one out", () => {
    const steps = [
      step(1, 100, "generator"),
      step(2, 200, "broken"),
      step(3, 100, "held"),
      step(4, 150, "no-verdict"),
    ];
    expect(searchedSteps(steps)).toEqual([
      { rate: 100, outcome: "held" },
      { rate: 200, outcome: "broken" },
    ]);
    expect(searchedSteps([step(1, 10, "aborted")])).toEqual([]);
  });
});

describe("capacityFigure", () => {
  it("brackets the capacity between the highest rate held and the lowest broken, with the retry's step", () => {
    const retried = step(4, 200, "broken", { reason: "second attempt" });
    const steps = [step(1, 100, "held"), step(2, 200, "broken"), step(3, 150, "held"), retried];
    const figure = capacityFigure(steps, "bracketed", ASKED);
    expect(figure).toEqual({
      kind: "bracketed",
      held: 150,
      broken: retried,
      limited: undefined,
      resolution: 50,
      asked: ASKED,
      stop: "bracketed",
    });
  });

  it("says at least the rate held when nothing broke, and none when nothing held", () => {
    const limited = step(2, 400, "generator");
    const atLeast = capacityFigure([step(1, 200, "held"), limited], "generator", ASKED);
    expect(atLeast).toMatchObject({
      kind: "at-least",
      held: 200,
      broken: undefined,
      limited,
      resolution: undefined,
    });
    expect(capacityFigure([step(1, 5, "broken")], "min-rate", ASKED)).toMatchObject({
      kind: "none",
      held: undefined,
    });
    expect(capacityFigure([], "time", ASKED)).toMatchObject({
      kind: "none",
      held: undefined,
      broken: undefined,
    });
  });
});

describe("brokenByText", () => {
  it("name each objective a step broke, or why none is named", () => {
    const noObserved = {
      ...slow,
      metric: "events_failed{scenario:capacity}",
      expression: "rate<0.01",
      observed: undefined,
    };
    expect(brokenByText(step(1, 10, "broken", { brokenBy: [slow, noObserved] }))).toBe(
      "http_req_duration{endpoint:events} p(95)<500 (p(95)=812ms), events_failed rate<0.01",
    );
    expect(brokenByText(step(1, 10, "broken", { brokenBy: [], reason: "no event was accepted" }))).toBe(
      "no event was accepted",
    );
    expect(brokenByText(step(1, 10, "broken", { brokenBy: [] }))).toBe("no objective named");
  });
});

describe("capacityClause", () => {
  const figure = (steps: CapacityStepResult[], stop: Parameters<typeof capacityFigure>[1]) =>
    capacityClause(capacityFigure(steps, stop, ASKED));

  it("writes a bracketed capacity with the rate that broke and why, rates to two decimals", () => {
    expect(figure([step(1, 950, "held"), step(2, 990, "broken")], "bracketed")).toBe(
      "capacity 950 events/s (990/s broke http_req_duration{endpoint:events} p(95)<500 (p(95)=812ms))",
    );
    expect(figure([step(1, 33.3333, "held")], "max-rate")).toBe(
      "capacity at least 33.33 events/s: every rate up to the rate bound (--max-rate) held",
    );
  });

  it("blames the generator where it ended the search, from the first step or above a rate held", () => {
    expect(figure([step(1, 40, "generator")], "generator")).toBe(
      `the generator, not the API, limited this search from its first step at 40/s (k6 at 97 % of its 2 CPUs): ${REMEDY}`,
    );
    expect(figure([step(1, 700, "held"), step(2, 740, "generator")], "generator")).toBe(
      `capacity at least 700 events/s: the generator, not the API, limited this search at 740/s (k6 at 97 % of its 2 CPUs): ${REMEDY}`,
    );
  });

  it("says no rate held, down to the lowest broken, or before the search stopped", () => {
    expect(figure([step(1, 20, "broken"), step(2, 10, "broken")], "min-rate")).toBe(
      "no rate held: every rate tried broke its objectives, down to 10/s (http_req_duration{endpoint:events} p(95)<500 (p(95)=812ms))",
    );
    expect(figure([], "aborted")).toBe("no rate held before the run was stopped");
    expect(describeStop("time")).toBe("the search's time bound (--duration) left no room for another step");
  });
});

describe("violationsOf", () => {
  it("names each violation once, at the lowest rate it showed", () => {
    const steps = [
      step(1, 300, "broken", { violations: [unexpected] }),
      step(2, 100, "broken", { violations: [unexpected] }),
    ];
    expect(violationsOf(steps)).toEqual([{ threshold: unexpected, rate: 100 }]);
  });
});

describe("capacityLoadResult", () => {
  const bracket = [step(1, 100, "held"), step(2, 200, "broken")];

  it("passes a search where a rate held and no step proved a violation", () => {
    const result = capacityLoadResult(capacityFigure(bracket, "bracketed", ASKED), bracket, [], undefined);
    expect(result).toMatchObject({ outcome: "passed", failedThresholds: [], waivedThresholds: [] });
    expect(describeResult(result)).toBe(
      "PASSED: capacity 100 events/s (200/s broke http_req_duration{endpoint:events} p(95)<500 (p(95)=812ms))",
    );
  });

  it("fails on a contract violation under load, naming the rate it showed at", () => {
    const steps = [step(1, 100, "held", { violations: [unexpected] }), step(2, 200, "broken")];
    const result = capacityLoadResult(capacityFigure(steps, "bracketed", ASKED), steps, [], undefined);
    expect(result.outcome).toBe("failed");
    expect(result.failedThresholds).toEqual([unexpected]);
    expect(result.capacity).toMatch(
      /; a contract violation under load: token_expiries\{kind:unexpected\} count==0 at 100\/s$/,
    );
  });

  it("calls a search with a stopped step aborted, and one k6 could not finish undecided", () => {
    const stopped = [
      step(1, 100, "held"),
      step(2, 200, "aborted", { reason: "interrupted (received SIGINT)" }),
    ];
    const aborted = capacityLoadResult(capacityFigure(stopped, "aborted", ASKED), stopped, [], undefined);
    expect(aborted).toMatchObject({
      outcome: "aborted",
      reason: "step 2 at 200/s: interrupted (received SIGINT)",
    });
    const unfinished = [step(1, 100, "no-verdict")];
    expect(
      capacityLoadResult(capacityFigure(unfinished, "no-verdict", ASKED), unfinished, [], undefined),
    ).toMatchObject({
      outcome: "undecided",
      reason: "step 1 at 100/s: no verdict",
    });
  });

  it("fails when even the lowest rate broke, and cannot decide when the generator ended the search first", () => {
    const broken = [step(1, 1, "broken")];
    expect(capacityLoadResult(capacityFigure(broken, "min-rate", ASKED), broken, [], undefined).outcome).toBe(
      "failed",
    );
    const limited = [step(1, 40, "generator")];
    const result = capacityLoadResult(capacityFigure(limited, "generator", ASKED), limited, [], undefined);
    expect(result.outcome).toBe("undecided");
    expect(result.reason).toBe(result.capacity);
  });

  it("fails on a baseline that regressed, and leaves the ledger's baseline entries unobserved without one", () => {
    const figure = capacityFigure(bracket, "bracketed", ASKED);
    const baseline = {
      regressed: ["capacity"],
      fails: true,
      accepted: [],
      line: "baseline REGRESSED (capacity −20 %)",
    };
    expect(capacityLoadResult(figure, bracket, [], undefined, baseline).outcome).toBe("failed");
    const entry = { id: "baseline.capacity", reason: "smaller machine", expires: "2027-01-31" };
    const ledger: Ledger = { file: "accepted.json", entries: [entry], today: "2026-11-25" };
    expect(capacityLoadResult(figure, bracket, [], ledger).accepted).toEqual([
      { entry, state: "unobserved", detail: "not observed: no baseline was compared" },
    ]);
  });
});
