import fc from "fast-check";
import type { ExploreDefinition } from "../../../contracts/checks/class-search.ts";
import { exploreClasses, keyOf } from "../../../contracts/checks/class-search.ts";
import type { InputClassLike } from "../../../contracts/checks/input-space.ts";
import type { Judgement } from "../../../contracts/checks/property-run.ts";
import type { FuzzSettings } from "../../../contracts/index.ts";
import { searchShare } from "../../../contracts/index.ts";
import { TransportError, UndecidableError } from "../../../core/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { idleProbe } from "../../support/idle-probe.ts";

const settings = (overrides: Partial<FuzzSettings> = {}): FuzzSettings => ({
  seed: 5,
  runs: 20,
  timeLimitMs: 10_000,
  shrinkLimitMs: 10_000,
  runId: "class-search",
  ...overrides,
});

/** A class of integers from 0 to 1,000,000 whose boundaries are `cover`. */
function integers(name: string, cover: readonly number[], field = "amount"): InputClassLike<number> {
  return {
    field,
    name,
    description: `integers (${name})`,
    expect: "refused",
    cover,
    arbitrary: fc.integer({ min: 0, max: 1_000_000 }),
  };
}

const holds: Judgement = { verdict: "holds", status: 400 };

/** Judges each value with `verdict`, showing it as its decimal text; `sent` records every value per class. */
function definition(
  classes: readonly InputClassLike<number>[],
  verdict: (value: number, cls: InputClassLike<number>) => Judgement,
  sent: Array<readonly [string, number]> = [],
): ExploreDefinition<number> {
  return {
    checkId: "inputs.synthetic",
    classes,
    async judge(value, cls, _probe, shown) {
      sent.push([cls.name, value]);
      shown({ what: `${cls.name} ${value}`, contentType: "text/plain", body: String(value) });
      return verdict(value, cls);
    },
  };
}

describe("keyOf", () => {
  it("is field/name, with via in front when the class has one", () => {
    expect(keyOf({ field: "customer.email", name: "empty" })).toBe("customer.email/empty");
    expect(keyOf({ field: "client_id", name: "unknown", via: "client_secret_basic" })).toBe(
      "client_secret_basic/client_id/unknown",
    );
  });

  it("makes every character but A-Za-z0-9._- in the field a dash, leaving the name alone", () => {
    expect(keyOf({ field: "items[0] /ünï", name: "x:y" })).toBe("items-0----n-/x:y");
  });
});

describe("searchShare", () => {
  it("gives each class an equal share and the remainder to the first classes", () => {
    expect([0, 1, 2].map((index) => searchShare(10, 3, index))).toEqual([4, 3, 3]);
    expect([0, 1, 2].map((index) => searchShare(2, 3, index))).toEqual([1, 1, 0]);
    expect(searchShare(9, 3, 2)).toBe(3);
  });

  it("gives nothing when there are no runs or no classes", () => {
    expect(searchShare(0, 4, 0)).toBe(0);
    expect(searchShare(10, 0, 0)).toBe(0);
  });
});

describe("exploreClasses", () => {
  it("sends nothing with --fuzz-runs 0 or without a class, saying which", async () => {
    const sent: Array<readonly [string, number]> = [];
    const none = await exploreClasses(
      idleProbe(),
      settings({ runs: 0 }),
      definition([integers("all", [1])], () => holds, sent),
    );
    expect(none).toEqual({ kind: "nothing-sent", why: "--fuzz-runs 0: no input drawn" });
    const empty = await exploreClasses(
      idleProbe(),
      settings(),
      definition([], () => holds, sent),
    );
    expect(empty).toEqual({ kind: "nothing-sent", why: "no class of inputs applies to this target" });
    expect(sent).toEqual([]);
  });

  it("covers each class's first boundary, then spreads the search runs over the classes", async () => {
    const sent: Array<readonly [string, number]> = [];
    const classes = [integers("low", [0, 1]), integers("high", [1_000_000]), integers("mid", [500])];
    const outcome = await exploreClasses(
      idleProbe(),
      settings({ runs: 10 }),
      definition(classes, () => holds, sent),
    );
    if (outcome.kind !== "explored") throw new Error(outcome.why);
    expect(sent.slice(0, 3)).toEqual([
      ["low", 0],
      ["high", 1_000_000],
      ["mid", 500],
    ]);
    expect(outcome.failures).toEqual([]);
    expect(outcome.errors).toEqual([]);
    expect(outcome.interrupted).toBe(false);
    expect(outcome.judged).toBe(13);
    expect(outcome.exploration).toMatchObject({ seed: 5, coverage: "first", searchRuns: 10 });
    expect(
      outcome.exploration.classes.map(({ key, tried, covered, answers, outcome }) => ({
        key,
        tried,
        covered,
        answers,
        outcome,
      })),
    ).toEqual([
      { key: "amount/low", tried: 5, covered: 1, answers: { 400: 5 }, outcome: "held" },
      { key: "amount/high", tried: 4, covered: 1, answers: { 400: 4 }, outcome: "held" },
      { key: "amount/mid", tried: 4, covered: 1, answers: { 400: 4 }, outcome: "held" },
    ]);
  });

  it("sends every boundary with coverAll, round by round", async () => {
    const sent: Array<readonly [string, number]> = [];
    const classes = [integers("a", [1, 2, 3]), integers("b", [7])];
    const outcome = await exploreClasses(
      idleProbe(),
      settings({ runs: 2, coverAll: true }),
      definition(classes, () => holds, sent),
    );
    expect(sent.slice(0, 4)).toEqual([
      ["a", 1],
      ["b", 7],
      ["a", 2],
      ["a", 3],
    ]);
    expect(outcome.kind === "explored" && outcome.exploration.coverage).toBe("all");
  });

  it("reports a boundary that breaks its class as found by the coverage, replayable by the class's key", async () => {
    const outcome = await exploreClasses(
      idleProbe(),
      settings({ runs: 4 }),
      definition([integers("zero", [0]), integers("one", [1])], (value) =>
        value === 0 ? { verdict: "broken", said: "received 201", serverError: false, status: 201 } : holds,
      ),
    );
    if (outcome.kind !== "explored") throw new Error(outcome.why);
    expect(outcome.failures).toHaveLength(1);
    expect(outcome.failures[0]).toMatchObject({
      key: "amount/zero",
      path: "amount/zero",
      byCoverage: true,
      run: 1,
      reproduced: true,
      shrinks: 0,
      shown: { what: "zero 0", body: "0" },
      judgement: { said: "received 201" },
    });
    expect(outcome.exploration.classes.map((cls) => cls.outcome)).toEqual(["broken", "held"]);
  });

  it("shrinks a failure the search found to the smallest input that still breaks the class", async () => {
    const outcome = await exploreClasses(
      idleProbe(),
      settings({ runs: 40 }),
      definition([integers("large", [0])], (value) =>
        value > 1_000 ? { verdict: "broken", said: "received 500", serverError: true, status: 500 } : holds,
      ),
    );
    if (outcome.kind !== "explored") throw new Error(outcome.why);
    const [failure] = outcome.failures;
    expect(failure?.byCoverage).toBe(false);
    expect(failure?.path).toMatch(/^amount\/large:\d+(:\d+)*$/);
    expect(failure?.shown.body).toBe("1001");
    expect(failure?.reproduced).toBe(true);
  });

  it("says a failure did not recur when the same input holds when sent again", async () => {
    const seen = new Map<number, number>();
    const onceOnly = (value: number): Judgement => {
      seen.set(value, (seen.get(value) ?? 0) + 1);
      return value === 0 && seen.get(value) === 1
        ? { verdict: "broken", said: "received 500", serverError: true }
        : holds;
    };
    const covered = await exploreClasses(
      idleProbe(),
      settings({ runs: 1 }),
      definition([integers("flaky", [0])], onceOnly),
    );
    if (covered.kind !== "explored") throw new Error(covered.why);
    expect(covered.failures[0]).toMatchObject({ key: "amount/flaky", byCoverage: true, reproduced: false });

    seen.clear();
    const searched = await exploreClasses(
      idleProbe(),
      settings({ runs: 40 }),
      definition([integers("flaky", [0])], (value) =>
        value > 1_000 && (seen.get(value) ?? 0) === 0 && seen.set(value, 1)
          ? { verdict: "broken", said: "received 500", serverError: true }
          : holds,
      ),
    );
    if (searched.kind !== "explored") throw new Error(searched.why);
    const [failure] = searched.failures;
    expect(failure).toMatchObject({
      byCoverage: false,
      reproduced: false,
      shrinks: 0,
      shrinkInterrupted: false,
    });
    expect(Number(failure?.shown.body)).toBeGreaterThan(1_000);
  });

  it("leaves a search failure unshrunk when no shrink time is left, saying so", async () => {
    const outcome = await exploreClasses(
      idleProbe(),
      settings({ runs: 40, shrinkLimitMs: 0 }),
      definition([integers("large", [0])], (value) =>
        value > 1_000 ? { verdict: "broken", said: "received 500", serverError: true } : holds,
      ),
    );
    if (outcome.kind !== "explored") throw new Error(outcome.why);
    expect(outcome.failures[0]).toMatchObject({
      reproduced: true,
      shrinkInterrupted: true,
      shrinks: 0,
      shrinkMs: 0,
    });
  });

  it("replays a search failure by KEY:PATH, shrinking it to the same smallest input", async () => {
    const classes = [integers("large", [0])];
    const verdict = (value: number): Judgement =>
      value > 1_000 ? { verdict: "broken", said: "received 500", serverError: true } : holds;
    const found = await exploreClasses(
      idleProbe(),
      settings({ runs: 40, shrinkLimitMs: 0 }),
      definition(classes, verdict),
    );
    if (found.kind !== "explored") throw new Error(found.why);
    const path = found.failures[0]?.path ?? "";
    expect(path).toMatch(/^amount\/large:/);
    const replayed = await exploreClasses(
      idleProbe(),
      settings({ replayPath: path }),
      definition(classes, verdict),
    );
    if (replayed.kind !== "explored") throw new Error(replayed.why);
    expect(replayed.replayed).toBe(path);
    expect(replayed.failures[0]).toMatchObject({
      byCoverage: false,
      reproduced: true,
      shown: { body: "1001" },
    });
  });

  it("puts a class that met a 5xx before the other broken ones", async () => {
    const outcome = await exploreClasses(
      idleProbe(),
      settings({ runs: 2 }),
      definition([integers("accepted", [3]), integers("crashed", [4])], (value) =>
        value === 3
          ? { verdict: "broken", said: "received 201", serverError: false }
          : value === 4
            ? { verdict: "broken", said: "received 500", serverError: true }
            : holds,
      ),
    );
    if (outcome.kind !== "explored") throw new Error(outcome.why);
    expect(outcome.failures.map((failure) => failure.key)).toEqual(["amount/crashed", "amount/accepted"]);
  });

  it("ends only the class a transport failure happened in, naming it as undecided", async () => {
    const outcome = await exploreClasses(
      idleProbe(),
      settings({ runs: 4 }),
      definition([integers("down", [1]), integers("up", [2])], (_value, cls) => {
        if (cls.name === "down") throw new TransportError("connection refused", "ECONNREFUSED");
        return holds;
      }),
    );
    if (outcome.kind !== "explored") throw new Error(outcome.why);
    expect(outcome.errors).toHaveLength(1);
    expect(outcome.errors[0]?.key).toBe("amount/down");
    expect(outcome.errors[0]?.error).toBeInstanceOf(TransportError);
    const [down, up] = outcome.exploration.classes;
    expect(down).toMatchObject({
      outcome: "undecided",
      note: "could not decide: connection refused",
      tried: 0,
    });
    expect(up).toMatchObject({ outcome: "held", tried: 3 });
  });

  it("gives up as undecidable after ten inputs in a row were not judged", async () => {
    const classes = Array.from({ length: 12 }, (_, index) => integers(`c${index}`, [index]));
    await expect(
      exploreClasses(
        idleProbe(),
        settings(),
        definition(classes, () => ({ verdict: "not-judged", why: "429 too many requests", status: 429 })),
      ),
    ).rejects.toThrow(new UndecidableError("10 inputs in a row were not judged: 429 too many requests"));
  });

  it("lists the classes it cannot send as not reached, with why", async () => {
    const outcome = await exploreClasses(idleProbe(), settings({ runs: 1 }), {
      ...definition([integers("sent", [1])], () => holds),
      unreachable: [[integers("basic", [1], "client_secret"), "the target refuses HTTP Basic"]],
    });
    if (outcome.kind !== "explored") throw new Error(outcome.why);
    expect(outcome.exploration.classes[1]).toMatchObject({
      key: "client_secret/basic",
      outcome: "not-reached",
      tried: 0,
      note: "the target refuses HTTP Basic",
    });
  });

  it("sends the check's first input whatever the time limit, then notes where the limit cut it", async () => {
    const sent: Array<readonly [string, number]> = [];
    const outcome = await exploreClasses(
      idleProbe(),
      settings({ runs: 4, timeLimitMs: 0 }),
      definition([integers("first", [1]), integers("second", [2])], () => holds, sent),
    );
    if (outcome.kind !== "explored") throw new Error(outcome.why);
    expect(sent).toEqual([["first", 1]]);
    expect(outcome.interrupted).toBe(true);
    const [first, second] = outcome.exploration.classes;
    expect(first).toMatchObject({
      outcome: "held",
      note: "the time limit ended the check before this class's search",
    });
    expect(second).toMatchObject({
      outcome: "not-reached",
      note: "the time limit ended the coverage before this class's boundary 1",
    });
  });

  it("replays a class's coverage by its key, and refuses a key it does not have, naming its classes", async () => {
    const sent: Array<readonly [string, number]> = [];
    const classes = [integers("a", [1, 2]), integers("b", [3])];
    const verdict = (value: number): Judgement =>
      value === 2 ? { verdict: "broken", said: "received 201", serverError: false } : holds;
    const replayed = await exploreClasses(
      idleProbe(),
      settings({ replayPath: "amount/a" }),
      definition(classes, verdict, sent),
    );
    expect(sent).toEqual([
      ["a", 1],
      ["a", 2],
    ]);
    if (replayed.kind !== "explored") throw new Error(replayed.why);
    expect(replayed.replayed).toBe("amount/a");
    expect(replayed.failures[0]).toMatchObject({ path: "amount/a", run: 2, byCoverage: true });

    const unknown = await exploreClasses(
      idleProbe(),
      settings({ replayPath: `amount/${"z".repeat(100)}:1:2` }),
      definition(classes, verdict),
    );
    expect(unknown).toEqual({
      kind: "nothing-sent",
      why: `inputs.synthetic has no class amount/${"z".repeat(73)}… for this target (its classes: amount/a, amount/b)`,
    });
  });
});
