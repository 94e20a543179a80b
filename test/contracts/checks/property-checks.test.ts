import type { CheckResult, FuzzSettings } from "../../../contracts/index.ts";
import { PROPERTY_CHECK_IDS } from "../../../contracts/index.ts";
import type { FaultName, RunningSandbox } from "../../../sandbox/index.ts";
import type { SandboxRequest } from "../../support/fixtures.ts";
import { describe, expect, test } from "../../support/fixtures.ts";
import type { InterposingServer, Interposition } from "../../support/interposing-server.ts";
import { startInterposingServer } from "../../support/interposing-server.ts";
import { runPropertyCheck, sandboxTarget } from "../../support/property-probe.ts";

/**
 * `fronted(decide, faults)`: a sandbox (with the quote-reference fault unless `faults` say otherwise) behind a front
 * that answers the harness's property inputs (their references) as `decide` says; both closed after the test.
 */
const it = test.extend("fronted", async ({ sandbox }, { onCleanup }) => {
  const fronts: InterposingServer[] = [];
  onCleanup(async () => {
    await Promise.all(fronts.map((front) => front.close()));
  });
  return async (
    decide: (body: string, count: number) => Interposition,
    faults: FaultName[] = ["events-5xx-quote-reference"],
  ) => {
    const target = await sandbox(faults);
    let count = 0;
    const upstream = new URL(target.baseUrl).origin;
    const front = await startInterposingServer(upstream, (method, path, _headers, body) => {
      if (method !== "POST" || !path.endsWith("/events") || !body.includes("eah-fz-")) return undefined;
      count += 1;
      return decide(body, count);
    });
    fronts.push(front);
    return {
      ...sandboxTarget(target),
      baseUrl: front.url(target.baseUrl),
      tokenUrl: front.url(target.tokenUrl),
    };
  };
});

async function against(
  sandbox: (request: SandboxRequest) => Promise<RunningSandbox>,
  faults: FaultName[],
  id: string,
  settings: Partial<FuzzSettings> = {},
): Promise<CheckResult> {
  return runPropertyCheck(id, sandboxTarget(await sandbox(faults)), settings);
}

/** The minimal input's body, parsed (integers past 2^53 kept as text). */
function body(result: CheckResult): Record<string, unknown> {
  const input = result.counterexample?.input;
  if (input === undefined) throw new Error(`no counterexample: ${result.status} ${result.message}`);
  return JSON.parse(input.replace(/:(-?[0-9]{17,})/g, ':"$1"')) as Record<string, unknown>;
}

function depthOf(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}

const SPEC_NAMES = ["type", "customer", "channel", "transaction", "system", "systemVersion"];
const field = (result: CheckResult, path: string): unknown =>
  path.split(".").reduce<unknown>((value, key) => (value as Record<string, unknown>)?.[key], body(result));
const codePoints = (text: unknown) => [...String(text)].length;
/** The generated part of a reference: what follows the sender's unique stem. */
const tail = (reference: unknown) => String(reference).replace(/^eah-fz-[0-9a-z]{7}-[a-z][0-9a-z]{5}-/, "");

describe("the property-based checks against the correct sandbox", () => {
  it.for(PROPERTY_CHECK_IDS)(
    "%s passes, saying how many inputs it judged and from which seed",
    async (id, { sandbox }) => {
      const result = await runPropertyCheck(id, sandboxTarget(await sandbox()), { runs: 60 });
      expect(result.status, result.message).toBe("PASS");
      expect(result.message).toMatch(
        /^\d+ .* over \d+ class(es)? answered as each class requires \(seed 7, each class's first boundary, then 60 drawn\)$/,
      );
      expect(result.exploration?.classes.every((cls) => cls.outcome === "held")).toBe(true);
      expect(result.counterexample).toBeUndefined();
    },
  );

  it("passes inputs.token-form with HTTP Basic client authentication too", async ({ sandbox }) => {
    const result = await runPropertyCheck("inputs.token-form", sandboxTarget(await sandbox(), "basic"), {
      runs: 60,
    });
    expect(result.status, result.message).toBe("PASS");
  });

  it("SKIPs when it sends nothing (--fuzz-runs 0)", async ({ sandbox }) => {
    const result = await runPropertyCheck("inputs.valid-accepted", sandboxTarget(await sandbox()), {
      runs: 0,
    });
    expect(result).toMatchObject({ status: "SKIP", message: "no input sent: --fuzz-runs 0: no input drawn" });
  });
});

describe("each input bug class fails its check, shrunk to a minimal input", () => {
  // fast-check shrinks to a local minimum: one character more than the least failing input may remain.
  it("a + or non-ASCII local part: the address shrinks to such a character (and at most one more)", async ({
    sandbox,
  }) => {
    const result = await against(sandbox, ["events-5xx-email-local-part"], "inputs.valid-accepted");
    expect(result).toMatchObject({ status: "FAIL", level: "MUST" });
    const local = String(field(result, "customer.email")).replace(/@example\.(com|net|org)$/, "");
    expect(codePoints(local), local).toBeLessThanOrEqual(2);
    expect([...local].some((char) => char === "+" || (char.codePointAt(0) ?? 0) > 0x7f)).toBe(true);
  });

  it("a reference past 64 characters: shrinks to 65 (the length shrinks first; the letters take longer)", async ({
    sandbox,
  }) => {
    const result = await against(sandbox, ["events-5xx-long-reference"], "inputs.valid-accepted", {
      shrinkLimitMs: 5_000,
    });
    expect(result.status).toBe("FAIL");
    expect(codePoints(field(result, "transaction.reference"))).toBe(65);
  });

  it("a quote in a reference: the generated part shrinks to the quote alone", async ({ sandbox }) => {
    const result = await against(sandbox, ["events-5xx-quote-reference"], "inputs.valid-accepted");
    expect(result.status).toBe("FAIL");
    expect(tail(field(result, "transaction.reference"))).toBe("'");
  });

  it("an emoji in system: system shrinks to the emoji", async ({ sandbox }) => {
    const result = await against(sandbox, ["events-5xx-emoji-system"], "inputs.valid-accepted");
    expect(result.status).toBe("FAIL");
    const system = String(field(result, "system"));
    expect(system).toMatch(/\p{Extended_Pictographic}/u);
    expect([...new Intl.Segmenter().segment(system)].length).toBeLessThanOrEqual(2);
  });

  it("an unknown property: one property the spec does not name, nothing else unusual", async ({
    sandbox,
  }) => {
    const result = await against(sandbox, ["events-5xx-unknown-property"], "inputs.no-server-error");
    expect(result).toMatchObject({ status: "FAIL", level: "MUST" });
    const extra = Object.keys(body(result)).filter((key) => !SPEC_NAMES.includes(key));
    const nested = ["customer", "channel", "transaction"].flatMap((name) =>
      Object.keys(body(result)[name] as object).filter(
        (key) => !["email", "id", "reference", "date"].includes(key),
      ),
    );
    expect([...extra, ...nested]).toHaveLength(1);
  });

  it("null for a required field: the type check fails on the null", async ({ sandbox }) => {
    const result = await against(sandbox, ["events-5xx-null-field"], "inputs.types-enforced");
    expect(result).toMatchObject({ status: "FAIL", level: "MUST" });
    expect(result.counterexample?.what).toMatch(/ is null where the spec says/);
  });

  it("an integer past 2^53: shrinks to 2^53 + 1", async ({ sandbox }) => {
    const result = await against(sandbox, ["events-5xx-huge-integer"], "inputs.no-server-error");
    expect(result.status).toBe("FAIL");
    expect(result.counterexample?.input).toMatch(/[:[]-?9007199254740993\b/);
  });

  it("nesting past 100 levels: shrinks to a body 101 levels deep", async ({ sandbox }) => {
    const result = await against(sandbox, ["events-5xx-deep-nesting"], "inputs.no-server-error");
    expect(result.status).toBe("FAIL");
    expect(depthOf(body(result))).toBe(101);
  });

  it("lenient dates: a date without milliseconds, with an offset or date-only is accepted, and that fails", async ({
    sandbox,
  }) => {
    const result = await against(sandbox, ["events-lenient-dates"], "inputs.dates-enforced");
    expect(result).toMatchObject({ status: "FAIL", level: "MUST" });
    expect(result.message).toMatch(/accepted it: received 202/);
    expect(String(field(result, "transaction.date"))).not.toMatch(/\.[0-9]{3}Z$/);
  });

  it("checks of one run never reuse each other's references: a target that stored one check's inputs answers the next one's on their merits", async ({
    sandbox,
  }) => {
    const target = sandboxTarget(await sandbox(["events-accept-invalid"]));
    const run = { runId: "one-run" };
    const types = await runPropertyCheck("inputs.types-enforced", target, run);
    const dates = await runPropertyCheck("inputs.dates-enforced", target, run);
    for (const result of [types, dates]) {
      expect(result).toMatchObject({ status: "FAIL" });
      expect(result.message).toMatch(/accepted it: received 202/);
      expect(result.message).not.toMatch(/409|must be unique/);
    }
  });

  it("numbers taken for strings: shrinks to a field holding 0", async ({ sandbox }) => {
    const result = await against(sandbox, ["events-numbers-as-strings"], "inputs.types-enforced");
    expect(result).toMatchObject({ status: "FAIL", level: "MUST" });
    expect(result.counterexample?.what).toMatch(/is a number where the spec says string/);
    expect(result.counterexample?.input).toMatch(/":0[,}]/);
  });

  it("repeated token parameters accepted: a SHOULD warning naming the repeated parameter", async ({
    sandbox,
  }) => {
    const result = await against(sandbox, ["token-repeated-params-accepted"], "inputs.token-form");
    expect(result).toMatchObject({ status: "WARN", level: "SHOULD" });
    expect(result.counterexample?.what).toMatch(/sent twice/);
  });

  it("a 5xx for an empty token parameter: a MUST failure under the rule a 5xx breaks", async ({
    sandbox,
  }) => {
    const result = await against(sandbox, ["token-empty-param-5xx"], "inputs.token-form");
    expect(result).toMatchObject({ status: "FAIL", level: "MUST" });
    expect(result.counterexample?.what).toMatch(/sent empty/);
    expect(result.counterexample?.input).not.toContain("sandbox-demo-secret");
  });
});

describe("the stage replays by seed and path, and stays honest about what it judged", () => {
  // Only the stem that keeps each reference unique (the run's id and a count) is the run's own.
  const unstemmed = (input: string | undefined) =>
    input?.replace(/eah-fz-[0-9a-z]{7}-[a-z][0-9a-z]{5}-/g, "eah-fz-…-");

  it("--seed and --fuzz-replay reproduce the minimal input exactly, but for the unique reference stem", async ({
    sandbox,
  }) => {
    const target = sandboxTarget(await sandbox(["events-5xx-quote-reference"]));
    const found = await runPropertyCheck("inputs.valid-accepted", target, { seed: 11, runId: "replay" });
    const path = found.counterexample?.path as string;
    expect(found.counterexample?.replay).toBe(
      `--seed 11 --only inputs.valid-accepted --fuzz-runs 200 --fuzz-replay ${path}`,
    );
    const replayed = await runPropertyCheck("inputs.valid-accepted", target, {
      seed: 11,
      runId: "replay",
      replayPath: path,
    });
    expect(replayed.status).toBe("FAIL");
    expect(unstemmed(replayed.counterexample?.input)).toBe(unstemmed(found.counterexample?.input));
    expect(replayed.counterexample?.input).toMatch(/"reference":"eah-fz-[0-9a-z]{7}-[a-z][0-9a-z]{5}-'"/);
    expect(replayed.counterexample?.path).toBe(path);
  });

  it("a replay whose input now holds passes on what it sent, saying it replayed that path", async ({
    sandbox,
  }) => {
    const result = await runPropertyCheck("inputs.valid-accepted", sandboxTarget(await sandbox()), {
      runs: 25,
      replayPath: "event/every-field-wide:3",
    });
    expect(result.status, result.message).toBe("PASS");
    expect(result.message).toBe(
      "1 valid events of event/every-field-wide answered as the class requires (seed 7; replayed event/every-field-wide:3)",
    );
  });

  it.for([
    [
      "past the inputs the search draws",
      "event/every-field-wide:5000",
      /^no input sent: --fuzz-replay 5000 starts at input 5001, past the 275 /,
    ],
    [
      "past the shrinks of the input it starts at",
      "event/every-field-wide:3:15000",
      /^no input sent: the path 3:15000 leads to no input of seed 7$/,
    ],
    [
      "deeper than the input shrinks",
      `event/every-field-wide:3${":0".repeat(2_000)}`,
      /^no input sent: the path 3(:0){19}:… \(4001 characters\) leads to no input of seed 7$/,
    ],
  ] as const)(
    "a replay of a path %s sends nothing and is SKIP, never PASS",
    async ([, path, message], { sandbox }) => {
      const result = await runPropertyCheck("inputs.valid-accepted", sandboxTarget(await sandbox()), {
        runs: 25,
        replayPath: path,
      });
      expect(result.status, result.message).toBe("SKIP");
      expect(result.message).toMatch(message);
    },
  );

  it("a 429 judges nothing: the inputs it refused are skipped and said, and no failure follows from them", async ({
    fronted,
  }) => {
    const target = await fronted((body, count) =>
      body.includes("'")
        ? undefined
        : count % 3 === 0
          ? { status: 429, headers: { "retry-after": "0" } }
          : undefined,
    );
    const result = await runPropertyCheck("inputs.types-enforced", target, { runs: 30 });
    expect(result.status, result.message).toBe("PASS");
    expect(result.message).toMatch(/^\d+ events .*; \d+ answers were 429 and judged nothing\)$/);
  });

  it("a target that answers every input 429 leaves the check undecided (ERROR), never failed", async ({
    fronted,
  }) => {
    const target = await fronted(() => ({ status: 429, headers: { "retry-after": "0" } }));
    const result = await runPropertyCheck("inputs.valid-accepted", target, { runs: 60 });
    expect(result.status).toBe("ERROR");
    expect(result.message).toMatch(/could not decide: 10 inputs in a row were not judged/);
  });

  it("a transport failure on an input is ERROR (could not decide), not a failure of the target", async ({
    fronted,
  }) => {
    const target = await fronted((_body, count) => (count === 5 ? "reset" : undefined));
    const result = await runPropertyCheck("inputs.dates-enforced", target, { runs: 30 });
    expect(result.status).toBe("ERROR");
    expect(result.message).toMatch(/^could not decide: /);
  });

  it("a 5xx that does not happen again is still a MUST failure, reported unshrunk and said so", async ({
    fronted,
  }) => {
    const target = await fronted((_body, count) => (count === 3 ? { status: 503, body: "busy" } : undefined));
    const result = await runPropertyCheck("inputs.dates-enforced", target, { runs: 30 });
    expect(result).toMatchObject({ status: "FAIL", level: "MUST" });
    expect(result.message).toMatch(/did not fail when sent again: a flaky target\?/);
    expect(result.counterexample?.shrinks).toBe(0);
  });

  it("the time limit ends the search honestly: it says how many inputs it judged", async ({ sandbox }) => {
    const result = await runPropertyCheck("inputs.valid-accepted", sandboxTarget(await sandbox()), {
      runs: 100_000,
      timeLimitMs: 300,
    });
    expect(result.status).toBe("PASS");
    expect(result.message).toMatch(/the time limit of 300 ms ended the exploration after \d+ inputs/);
    expect(result.exploration?.classes.some((cls) => cls.note?.includes("time limit"))).toBe(true);
  });
});

describe("the time limit stops drawing inputs; it never abandons one in flight", () => {
  // Each check's share of the time is 100 ms here; the inputs are answered after 400 ms.
  const late = { timeLimitMs: 100, shrinkLimitMs: 100 };

  it("an input answered 500 after the time limit still fails the check (MUST), and is the counterexample", async ({
    fronted,
  }) => {
    const target = await fronted(() => ({ status: 500, body: "backend timeout", delayMs: 400 }), []);
    const result = await runPropertyCheck("inputs.valid-accepted", target, { runs: 25, ...late });
    expect(result, result.message).toMatchObject({ status: "FAIL", level: "MUST" });
    expect(result.message).toMatch(/expected no 5xx, received 500 /);
    expect(result.counterexample?.foundAt.input).toBe(1);
  });

  it("an input answered late and correctly is judged: the check passes on it and says the time limit ended the search", async ({
    fronted,
  }) => {
    const target = await fronted(() => ({ forwardAfterMs: 400 }), []);
    const result = await runPropertyCheck("inputs.valid-accepted", target, { runs: 25, ...late });
    expect(result.status, result.message).toBe("PASS");
    expect(result.message).toMatch(
      /^1 valid events over 1 class answered as each class requires \(seed 7, each class's first boundary, then 25 drawn; the time limit of 100 ms ended the exploration after 1 inputs; not reached: transaction\.reference\/wide-text, system\/wide-text, /,
    );
  });

  it("a failing input in flight is never dropped for the inputs judged before it", async ({ fronted }) => {
    // The first input passes through at once (a refusal), the next ones hang and fail.
    const target = await fronted(
      (_body, count) => (count === 1 ? undefined : { status: 502, body: "bad gateway", delayMs: 400 }),
      [],
    );
    const result = await runPropertyCheck("inputs.types-enforced", target, { runs: 25, ...late });
    expect(result, result.message).toMatchObject({ status: "FAIL", level: "MUST" });
    expect(result.message).toMatch(/received 502 /);
  });

  it("a check whose every input was answered 429 until the time limit is ERROR (could not decide), never SKIP", async ({
    fronted,
  }) => {
    const target = await fronted(() => ({ status: 429, headers: { "retry-after": "1" } }), []);
    const result = await runPropertyCheck("inputs.dates-enforced", target, { runs: 25, ...late });
    expect(result.status, result.message).toBe("ERROR");
    expect(result.message).toMatch(
      /^could not decide: every input sent was answered 429 \(too many requests\): 1 not judged/,
    );
  });
});
