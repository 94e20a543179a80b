import { readFile } from "node:fs/promises";
import path from "node:path";
import { CannotRunError } from "../../core/index.ts";
import type { K6CpuRecord, K6RunResult } from "../../k6-tooling/index.ts";
import {
  freeLoopbackPort,
  k6Connection,
  k6Environment,
  k6InputArgs,
  runK6,
  runningSince,
  writeK6Inputs,
} from "../../k6-tooling/index.ts";
import type { RunConfig, ScenarioPlan } from "../../load/index.ts";
import {
  arrivalCeiling,
  eventsToJudge,
  judgedSecondsFor,
  judgesWholeStep,
  nextStep,
  planScenario,
} from "../../load/index.ts";
import { EMBEDDED_SANDBOX_NOTE, formatDuration, formatDurationCompact } from "../../reporting/index.ts";
import type {
  CapacitySearchShape,
  CapacityStepResult,
  CapacityStop,
  GeneratorUsage,
  RunEnding,
  SummaryData,
  ThresholdResult,
} from "../../reporting/load/index.ts";
import {
  brokenByText,
  judgeCapacityStep,
  searchedSteps,
  thresholdResults,
} from "../../reporting/load/index.ts";
import type { CommandIo } from "../command.ts";
import { displayPath } from "../display-path.ts";
import { interruption } from "../interruption.ts";
import { makeDirectory } from "../make-directory.ts";
import { capacityObjectives } from "./capacity-objectives.ts";
import type { CapacitySettings } from "./capacity-settings.ts";
import { generatorUsage } from "./generator-usage.ts";
import { k6Ending } from "./k6-ending.ts";
import { mergeInstances } from "./merge-instances.ts";
import type { PreparedLoad } from "./prepare-load.ts";
import { runInstances } from "./run-instances.ts";

/** What a step costs beyond its planned seconds (k6's start, its VUs' init, its summary): kept free of the time bound. */
const STEP_OVERHEAD_SECONDS = 5;

/** Everything a capacity search left for the record. */
export interface CapacityExecution {
  readonly steps: readonly CapacityStepResult[];
  readonly stop: CapacityStop;
  readonly search: CapacitySearchShape;
  /** The run's thresholds as the user names them (each step's judged stretch is held to them). */
  readonly objectives: readonly { readonly metric: string; readonly expression: string }[];
  /** Every finished step's thresholds that read the whole step (contract violations), for the ledger. */
  readonly contractThresholds: readonly ThresholdResult[];
  readonly runSeconds: number;
}

/** One step's k6 run: its summary (merged over the instances), how it ended, and what k6 used meanwhile. */
interface StepRun {
  readonly data: SummaryData | undefined;
  readonly ending: RunEnding;
  readonly usage: GeneratorUsage;
}

/** The judged stretch of a k6 process's record: from its test's start plus the warm-up, to its end. */
const judgedWindow =
  (warmUpSeconds: number) =>
  (record: K6CpuRecord): readonly [number, number] => {
    const since = runningSince(record);
    return [
      since === undefined ? Number.POSITIVE_INFINITY : since + warmUpSeconds * 1000,
      Number.POSITIVE_INFINITY,
    ];
  };

async function readSummary(file: string): Promise<SummaryData | undefined> {
  try {
    const data = JSON.parse(await readFile(file, "utf8")) as SummaryData;
    return typeof data?.metrics === "object" ? data : undefined;
  } catch {
    return undefined;
  }
}

interface StepContext {
  readonly prepared: PreparedLoad;
  readonly io: CommandIo;
  readonly env: (inputsEnv: Readonly<Record<string, string>>) => Record<string, string>;
}

/** Runs one step as one k6 process. */
async function runSingleStep(
  { prepared, io, env }: StepContext,
  config: RunConfig,
  plan: ScenarioPlan,
  dir: string,
  warmUpSeconds: number,
): Promise<StepRun> {
  const inputs = await writeK6Inputs(config, plan, dir);
  const address = `127.0.0.1:${await freeLoopbackPort()}`;
  const maxSeconds = plan.maxSeconds + 60;
  const result: K6RunResult = await runK6({
    k6: prepared.k6,
    script: prepared.script,
    env: env(inputs.env),
    args: [
      ...k6InputArgs(inputs),
      "--address",
      address,
      ...prepared.settings.outs.flatMap((out) => ["--out", out]),
    ],
    stdout: io.stdout,
    stderr: io.stderr,
    redactor: prepared.redactor,
    signal: io.signal,
    maxSeconds,
    logFile: path.join(dir, "k6.log"),
    statusAddress: address,
  });
  const ending = k6Ending(result, io.signal, maxSeconds);
  return {
    data: ending.kind === "finished" ? await readSummary(inputs.summaryFile) : undefined,
    ending,
    usage: generatorUsage([result], judgedWindow(warmUpSeconds)),
  };
}

/** Runs one step over the run's k6 instances, started together, and merges their summaries. */
async function runMergedStep(
  { prepared, io, env }: StepContext,
  config: RunConfig,
  plan: ScenarioPlan,
  dir: string,
  warmUpSeconds: number,
): Promise<StepRun> {
  const run = await runInstances({
    count: prepared.settings.instances,
    k6: prepared.k6,
    script: prepared.script,
    config,
    plan,
    reportDir: dir,
    env,
    extraArgs: prepared.settings.outs.flatMap((out) => ["--out", out]),
    stdout: io.stdout,
    stderr: io.stderr,
    redactor: prepared.redactor,
    signal: io.signal,
    maxSeconds: plan.maxSeconds + 60,
  });
  const usage = generatorUsage(run.results, judgedWindow(warmUpSeconds));
  if (run.aborted)
    return { data: undefined, ending: { kind: "aborted", reason: interruption(io.signal) }, usage };
  if (run.failure !== undefined) {
    return {
      data: undefined,
      ending: { kind: "undecided", reason: prepared.redactor.untrusted(run.failure) },
      usage,
    };
  }
  try {
    return { data: (await mergeInstances(run.outputs, dir)).summary, ending: { kind: "finished" }, usage };
  } catch (error) {
    if (!(error instanceof CannotRunError)) throw error;
    return { data: undefined, ending: { kind: "undecided", reason: error.message }, usage };
  }
}

/**
 * A step the generator limited is run once more at the same rate before the search believes it: one stall of a
 * shared machine must not end a search. A second limited attempt stands.
 */
export function retryOf(
  steps: readonly CapacityStepResult[],
): { readonly kind: "step"; readonly rate: number; readonly phase: "retry" } | undefined {
  const last = steps.at(-1);
  const before = steps.at(-2);
  if (last?.outcome !== "generator") return undefined;
  if (before?.outcome === "generator" && before.rate === last.rate) return undefined;
  return { kind: "step", rate: last.rate, phase: "retry" };
}

/** One line of progress per step, before and after it. */
function stepLine(step: CapacityStepResult): string {
  const figures = `p95 ${step.latency.p95 === undefined ? "–" : formatDuration(step.latency.p95)}, ${Math.round(step.failureRate * 10_000) / 100} % failed, ${step.dropped} dropped`;
  switch (step.outcome) {
    case "held":
      return `held (${figures})`;
    case "broken":
      return `BROKEN by ${brokenByText(step)} (${figures})`;
    case "generator":
      return `not judged: the generator, not the API, limited it (${step.generator.signals.map((s) => s.short).join("; ")})`;
    default:
      return `no verdict: ${step.reason ?? "k6 did not finish"}`;
  }
}

/**
 * `load capacity`: runs the search step by step, one k6 run (or one set of --instances) a step, each at the rate the
 * steps before it call for, until the search ends, a bound is reached, or a step cannot finish.
 */
export async function executeCapacity(prepared: PreparedLoad, io: CommandIo): Promise<CapacityExecution> {
  const settings = prepared.settings.capacity as CapacitySettings;
  const { config, reportDir } = prepared;
  const timeBoundSeconds = config.durationSeconds ?? 600;
  const objectives = capacityObjectives(config, prepared.plan);
  const eventsPerStep = eventsToJudge(objectives);
  const search: CapacitySearchShape = {
    startRate: config.rate,
    factor: settings.factor,
    resolution: settings.resolution,
    maxRate: settings.maxRate,
    maxSteps: settings.maxSteps,
    timeBoundSeconds,
    stepWarmUpSeconds: settings.stepWarmUpSeconds,
    stepSeconds: settings.stepSeconds,
    eventsPerStep,
  };
  const searchSettings = {
    startRate: config.rate,
    factor: settings.factor,
    resolution: settings.resolution,
    maxRate: settings.maxRate,
    maxSteps: settings.maxSteps,
  };
  const reach = await k6Connection(prepared.target.connection, io.env);
  const started = Date.now();
  const steps: CapacityStepResult[] = [];
  const contractThresholds: ThresholdResult[] = [];
  let stop: CapacityStop | undefined;
  try {
    io.stderr.write(
      `event-harness: capacity: client model ${config.clientModel}, expires_in ${config.expiresInSeconds === undefined ? "not asked" : `${config.expiresInSeconds}s`} (margin ${config.marginSeconds}s)\n` +
        `event-harness: capacity search from ${search.startRate}/s, ×${search.factor} a step, to a resolution of ` +
        `${settings.resolution.kind === "relative" ? `${settings.resolution.value * 100} %` : `${settings.resolution.value}/s`}; ` +
        `each step ${formatDurationCompact(search.stepWarmUpSeconds * 1000)} not judged, then at least ${eventsPerStep} events judged; ` +
        `at most ${search.maxSteps} steps, ${search.maxRate}/s and ${formatDurationCompact(timeBoundSeconds * 1000)}` +
        `${prepared.settings.instances > 1 ? `, each step split over ${prepared.settings.instances} k6 instances` : ""}\n` +
        `event-harness: target ${prepared.targetRecord.baseUrl}${prepared.sandbox ? ` (${EMBEDDED_SANDBOX_NOTE})` : ""}, k6 ${prepared.k6.version}\n` +
        `event-harness: reports in ${displayPath(reportDir)}\n`,
    );
    const context: StepContext = {
      prepared,
      io,
      env: (inputsEnv) => k6Environment(io.env, { ...reach.env, ...inputsEnv }),
    };
    while (stop === undefined) {
      if (steps.length >= settings.maxSteps) {
        stop = "steps";
        break;
      }
      const next = retryOf(steps) ?? nextStep(searchedSteps(steps), searchSettings);
      if (next.kind === "done") {
        stop = next.stop;
        break;
      }
      const rate = Math.max(1, Math.round(next.rate));
      const judgedSeconds = judgedSecondsFor(rate, eventsPerStep, settings.stepSeconds);
      const elapsed = (Date.now() - started) / 1000;
      if (elapsed + settings.stepWarmUpSeconds + judgedSeconds + STEP_OVERHEAD_SECONDS > timeBoundSeconds) {
        stop = "time";
        break;
      }
      const index = steps.length + 1;
      const stepConfig: RunConfig = {
        ...config,
        // Each step's events carry references of their own: a target refuses a reference it has seen (409).
        runId: `${config.runId}-s${index}`,
        rate,
        capacityStep: { rate, warmUpSeconds: settings.stepWarmUpSeconds, judgedSeconds },
      };
      const plan = planScenario(stepConfig);
      const ceiling = arrivalCeiling(plan.executor);
      const dirName = `${String(index).padStart(2, "0")}-${rate}`;
      const dir = path.join(reportDir, "steps", dirName);
      await makeDirectory(dir);
      io.stderr.write(
        `event-harness: step ${index} (${next.phase}): ${rate}/s, ${formatDurationCompact(settings.stepWarmUpSeconds * 1000)} not judged, then ${formatDurationCompact(judgedSeconds * 1000)} judged, up to ${ceiling?.maxVus ?? "?"} VUs\n`,
      );
      const run =
        prepared.settings.instances > 1
          ? await runMergedStep(context, stepConfig, plan, dir, settings.stepWarmUpSeconds)
          : await runSingleStep(context, stepConfig, plan, dir, settings.stepWarmUpSeconds);
      const step = judgeCapacityStep(
        {
          index,
          rate,
          phase: next.phase,
          warmUpSeconds: settings.stepWarmUpSeconds,
          judgedSeconds,
          plannedIterations: plan.plannedIterations ?? rate * judgedSeconds,
          maxVus: ceiling?.maxVus ?? stepConfig.vus,
          dir: path.join("steps", dirName),
        },
        run.data,
        run.ending,
        run.usage,
        prepared.ledger,
      );
      steps.push(step);
      if (run.data !== undefined) {
        contractThresholds.push(...thresholdResults(run.data).filter((t) => judgesWholeStep(t.metric)));
      }
      io.stderr.write(`event-harness: step ${index}: ${rate}/s ${stepLine(step)}\n`);
      if (step.outcome === "aborted") stop = "aborted";
      else if (step.outcome === "no-verdict") stop = "no-verdict";
    }
  } finally {
    await reach.dispose();
  }
  return {
    steps,
    stop: stop ?? "no-verdict",
    search,
    objectives: Object.entries(objectives).flatMap(([metric, expressions]) =>
      expressions.map((expression) => ({ metric, expression })),
    ),
    contractThresholds,
    runSeconds: (Date.now() - started) / 1000,
  };
}
