// The property-based stage's figures, measured on the embedded sandbox:
//   npm run bench:fuzz -- [--seeds 3] [--false-alarm-runs 20] [--cost-runs 3] [--part classes,false-alarms,cost]
// classes: each input bug class's fault, `contract --profile full --only inputs` at the default number of inputs,
//   once per seed: found or not, after how many inputs and how long, the shrunk input and how long shrinking took.
// false-alarms: the whole full profile against the correct sandbox, seeds 1..N: any check that does not PASS.
// cost: the full profile with the stage and with --fuzz-runs 0 (the stage sends nothing), alternated, same seed.
import { parseArgs } from "node:util";
import { runContract } from "../../cli/contract/run-contract.ts";
import type { CheckResult, ContractSettings, Profile } from "../../contracts/index.ts";
import { DIRECT, FUZZ_DEFAULTS } from "../../contracts/index.ts";
import type { FaultName } from "../../sandbox/index.ts";
import { startSandbox } from "../../sandbox/index.ts";

const { values } = parseArgs({
  options: {
    seeds: { type: "string", default: "3" },
    "false-alarm-runs": { type: "string", default: "20" },
    "cost-runs": { type: "string", default: "3" },
    part: { type: "string", default: "classes,false-alarms,cost" },
  },
});
const seeds = Number(values.seeds);
const falseAlarmRuns = Number(values["false-alarm-runs"]);
const costRuns = Number(values["cost-runs"]);
const parts = new Set(values.part.split(","));

/** Each input bug class: the sandbox fault that has it, and the check that must find it. */
const CLASSES: ReadonlyArray<readonly [string, FaultName, string]> = [
  ["+ or non-ASCII local part → 500", "events-5xx-email-local-part", "inputs.valid-accepted"],
  ["reference > 64 characters → 500", "events-5xx-long-reference", "inputs.valid-accepted"],
  ["quote in reference → 500", "events-5xx-quote-reference", "inputs.valid-accepted"],
  ["emoji in system → 500", "events-5xx-emoji-system", "inputs.valid-accepted"],
  ["unknown property → 500", "events-5xx-unknown-property", "inputs.no-server-error"],
  ["required field null → 500", "events-5xx-null-field", "inputs.types-enforced"],
  ["integer > 2^53 → 500", "events-5xx-huge-integer", "inputs.no-server-error"],
  ["nesting > 100 levels → 500", "events-5xx-deep-nesting", "inputs.no-server-error"],
  ["lenient dates accepted", "events-lenient-dates", "inputs.dates-enforced"],
  ["numbers accepted as strings", "events-numbers-as-strings", "inputs.types-enforced"],
  ["address > 100 characters → 500", "events-5xx-long-email", "inputs.email"],
  ["U-label domain → 500", "events-5xx-idn-email", "inputs.email"],
  ["any string accepted as an address", "events-email-shape-unchecked", "inputs.email"],
  ["systemVersion > 50 characters → 500", "events-5xx-long-system-version", "inputs.strings"],
  ["type beyond ASCII → 500", "events-5xx-non-ascii-type", "inputs.strings"],
  ["February 29 of 2100 accepted", "events-leap-every-fourth-year", "inputs.calendar"],
  ["channel id without chl- accepted", "events-channel-prefix-unchecked", "inputs.channel-id"],
  ["array body accepted as a batch", "events-array-body-accepted", "inputs.body"],
  ["UTF-16 body → 500", "events-5xx-utf16-body", "inputs.body"],
  ["a charset or another case → 415", "events-strict-content-type", "inputs.envelope"],
  ["bearer in lower case → 500", "events-5xx-bearer-lowercase", "inputs.envelope"],
  ["escaped surrogate pair → 500", "events-5xx-escaped-surrogates", "inputs.json-grammar"],
  ["repeated token parameters accepted", "token-repeated-params-accepted", "inputs.token-form"],
  ["empty token parameter → 500", "token-empty-param-5xx", "inputs.token-form"],
  ["Basic with an unknown parameter → 500", "token-basic-5xx-unknown-param", "inputs.token-form"],
  ["secret compared without case", "token-secret-case-insensitive", "inputs.token-fields"],
  ["required token parameter missing → 500", "token-5xx-missing-param", "inputs.token-fields"],
  ["token value > 1,000 characters → 500", "token-5xx-long-value", "inputs.token-fields"],
];

async function contract(
  faults: FaultName[],
  profile: Profile,
  only: string[],
  seed: number,
  fuzzRuns?: number,
): Promise<{ results: CheckResult[]; ms: number }> {
  const sandbox = await startSandbox({ port: 0, expiresIn: 5, faults });
  const client = sandbox.clients[0];
  if (client === undefined) throw new Error("no client");
  const settings: ContractSettings = {
    target: {
      tokenUrl: sandbox.tokenUrl,
      baseUrl: sandbox.baseUrl,
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      audience: sandbox.baseUrl,
      clientAuth: "post",
      connection: DIRECT,
      timeoutMs: 10_000,
      embedded: true,
    },
    profile,
    only,
    seed,
    runId: `c${Date.now().toString(36)}`,
    ...(fuzzRuns === undefined ? {} : { fuzz: { ...FUZZ_DEFAULTS[profile], runs: fuzzRuns } }),
  };
  const started = performance.now();
  try {
    const results = await runContract(settings);
    return { results, ms: performance.now() - started };
  } finally {
    await sandbox.close();
  }
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
};
const seconds = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);
const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");

if (parts.has("classes")) {
  console.log(
    `## Input bug classes: contract --only inputs, the fast profile (25 drawn) and the full one (${FUZZ_DEFAULTS.full.runs} drawn), seeds 1..${seeds}\n`,
  );
  console.log(
    "| class | check | fast: found | full: found | found by | full: input (median, max) | time to find (median, max) | shrink time (median) | minimal input (seed 1) |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const [name, fault, id] of CLASSES) {
    const found: Array<NonNullable<CheckResult["counterexample"]>> = [];
    let fast = 0;
    let example = "";
    for (let seed = 1; seed <= seeds; seed++) {
      const quick = (await contract([fault], "fast", ["inputs"], seed)).results.find((r) => r.id === id);
      if (quick !== undefined && ["FAIL", "WARN"].includes(quick.status)) fast += 1;
      const { results } = await contract([fault], "full", ["inputs"], seed);
      const result = results.find((candidate) => candidate.id === id);
      if (result?.counterexample !== undefined && ["FAIL", "WARN"].includes(result.status)) {
        found.push(result.counterexample);
        if (seed === 1)
          example = `${result.counterexample.what}: \`${result.counterexample.input.slice(0, 120)}\``;
      }
    }
    const inputs = found.map((c) => c.foundAt.input);
    const times = found.map((c) => c.foundAt.afterMs);
    const coverage = found.filter((c) => c.byCoverage).length;
    console.log(
      `| ${name} | \`${id}\` | ${fast}/${seeds} | ${found.length}/${seeds} | coverage ${coverage}/${found.length} | ${median(inputs)}, ${Math.max(...inputs)} | ${seconds(median(times))}, ${seconds(Math.max(...times))} | ${seconds(median(found.map((c) => c.foundAt.shrinkMs)))} | ${cell(example)} |`,
    );
  }
  console.log("");
}

if (parts.has("false-alarms")) {
  let alarms = 0;
  const stage: number[] = [];
  for (let seed = 1; seed <= falseAlarmRuns; seed++) {
    const { results } = await contract([], "full", [], seed);
    const notPassed = results.filter((result) => result.status !== "PASS");
    if (notPassed.length > 0) {
      alarms += 1;
      console.log(`seed ${seed}: ${notPassed.map((r) => `${r.id} ${r.status}: ${r.message}`).join("; ")}`);
    }
    stage.push(results.filter((r) => r.area === "inputs").reduce((sum, r) => sum + r.durationMs, 0));
  }
  console.log(
    `## False alarms: ${alarms} of ${falseAlarmRuns} full-profile runs against the correct sandbox had a check other than PASS (seeds 1..${falseAlarmRuns}); the stage took ${seconds(median(stage))} (median), ${seconds(Math.max(...stage))} (max)\n`,
  );
}

if (parts.has("cost")) {
  for (const profile of ["fast", "full"] as const) {
    const withStage: number[] = [];
    const without: number[] = [];
    for (let run = 0; run < costRuns; run++) {
      // Alternated, so a slower minute of the shared machine weighs on both.
      withStage.push((await contract([], profile, [], 1)).ms);
      without.push((await contract([], profile, [], 1, 0)).ms);
    }
    const added = median(withStage) - median(without);
    console.log(
      `## Cost (${profile}): ${seconds(median(withStage))} with the stage, ${seconds(median(without))} with --fuzz-runs 0 (medians of ${costRuns}); the stage adds ${seconds(added)} (×${(median(withStage) / median(without)).toFixed(2)})\n`,
    );
  }
}
