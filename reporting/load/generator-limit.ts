import type { CpuReadiness } from "../../k6-tooling/index.ts";
import { countNoun } from "../index.ts";
import type { SummaryData } from "./summary-data.ts";
import { metricValue } from "./summary-data.ts";

/** A k6 process at this share of the CPUs it may run on, over its busiest stretch, is the run's bottleneck. */
export const GENERATOR_CPU_LIMIT = 0.9;
/**
 * VUs k6 had to spare by the target's account: when the target's answers keep fewer than this share of them busy
 * (Little's law), an iteration k6 did not start on time was k6's own doing.
 */
export const FREE_VU_SHARE = 0.5;
/** Busy VUs at this share of those k6 had started: the pool was held, so a dropped iteration found none free. */
export const POOL_HELD_SHARE = 0.9;
/** Dropped iterations allowed, as a share of the planned ones (the scenarios' guard, thresholds.ts). */
const DROPPED_GUARD = 0.01;

/** What was measured of the k6 processes while their test ran. */
export interface GeneratorUsage {
  /** CPU use of the busiest k6 process, as a share of the CPUs it may run on; undefined where it was not measured. */
  readonly cpu:
    | {
        readonly cpus: number;
        readonly meanShare: number;
        readonly busiestShare: number;
        readonly seconds: number;
        readonly processes: number;
        /** Over the 5 s its threads were most ready to run; undefined where the kernel keeps no run-queue times. */
        readonly ready?: CpuReadiness;
      }
    | undefined;
  /** How often k6 warned that it had no VU to start an iteration with ("Insufficient VUs"). */
  readonly insufficientVus: number;
}

/** Everything the judgement reads: the k6 processes' use, and the load they were asked for and gave. */
export interface GeneratorInput {
  readonly usage: GeneratorUsage | undefined;
  readonly droppedIterations: number;
  readonly plannedIterations: number | undefined;
  /** Iterations k6 started and ran (the planned ones less those it dropped or cut short). */
  readonly completedIterations: number | undefined;
  /** The highest arrival rate asked for, events a second; undefined for a closed model. */
  readonly peakRate: number | undefined;
  /** The VUs k6 could use at most. */
  readonly maxVus: number | undefined;
  /** The mean duration of the events' requests, ms. */
  readonly meanLatencyMs: number | undefined;
  /**
   * Whether the target kept its latency objectives (every threshold on event latency passed), with their observed
   * values for the report; undefined when the run had none.
   */
  readonly latencyKept: { readonly kept: boolean; readonly observed: string } | undefined;
  /**
   * k6's own count of its VUs: the most busy at once (its `vus` gauge) and the most it had started (`vus_max`).
   * It sees a pool held at a step's end, where latency grew, which the mean latency hides.
   */
  readonly vus?: { readonly busiest: number; readonly started: number } | undefined;
  /**
   * False where the harness sized the VU pool itself, up to what one k6 process holds (a capacity step): a pool too
   * small then calls for more k6 processes, not for --vus.
   */
  readonly vusAdjustable?: boolean;
}

/** k6's VU counts from its end-of-test data, when it reported both. */
export function k6Vus(data: SummaryData): GeneratorInput["vus"] {
  const busiest = metricValue(data, "vus", "max");
  const started = metricValue(data, "vus_max", "max");
  return busiest === undefined || started === undefined || started <= 0 ? undefined : { busiest, started };
}

export interface GeneratorSignal {
  /**
   * `cpu`: k6 at its CPUs' limit; `starved`: k6 kept from its CPUs by other work; `dropped`: iterations not started
   * although the target did not hold the VUs; `vus`: k6's own warning that it ran out of VUs, likewise.
   */
  readonly kind: "cpu" | "starved" | "dropped" | "vus";
  /**
   * What to do about it: more k6 processes (k6 itself was slow), CPUs of its own (other work took them), or more VUs
   * (its pool was too small).
   */
  readonly remedy: "instances" | "alone" | "vus";
  /** A few words for the verdict line: "k6 at 96 % of its 2 CPUs". */
  readonly short: string;
  /** The measured reason, one sentence. */
  readonly detail: string;
}

/** Whether the load generator, not the target, limited the run, and why. */
export interface GeneratorVerdict {
  readonly limited: boolean;
  readonly signals: readonly GeneratorSignal[];
  /** What was measured, in one sentence, limited or not. */
  readonly measured: string;
}

/** What the verdict and reports tell a user to do about a limited generator, by what limited it. */
export const GENERATOR_REMEDY = {
  instances: "use --instances N (more k6 processes), or run k6 on a machine of its own (k6-operator)",
  alone: "run k6 where no other work shares its CPUs (a quieter machine, or k6-operator)",
  vus: "give k6 more VUs (--vus)",
} as const;

/** The remedies the signals call for, in one clause. */
export function generatorRemedy(verdict: GeneratorVerdict): string {
  const kinds = new Set(verdict.signals.map((s) => s.remedy));
  return (["instances", "alone", "vus"] as const)
    .filter((kind) => kinds.has(kind))
    .map((kind) => GENERATOR_REMEDY[kind])
    .join("; ");
}

const percent = (share: number) => `${Math.round(share * 100)} %`;
const oneDecimal = (value: number) => (Math.round(value * 10) / 10).toString();

/**
 * Judges whether k6 limited the run. Four signals, each measured and each meaning the rate or latency was k6's, not
 * the target's:
 * - `cpu`: a k6 process used GENERATOR_CPU_LIMIT of the CPUs it may run on over its busiest 5 s: it sent late and
 *   read answers late, so what it measured includes its own queueing;
 * - `starved`: k6's threads were ready to run for GENERATOR_CPU_LIMIT of the CPU time its CPUs offered over their
 *   most ready 5 s but ran less, because other work held the CPUs, and the run broke a latency objective or dropped iterations: k6 sent
 *   and read late, so what broke may be its own lateness (a run that kept everything while starved proved the target
 *   held);
 * - `dropped`: k6 dropped more iterations than the guard allows although the target did not hold its VUs: either its
 *   answers kept fewer than FREE_VU_SHARE of the VUs busy (events in flight = the rate k6 achieved × mean latency,
 *   Little's law; the rate it achieved, since the rate it was asked for is what it failed to send), so
 *   k6 itself did not start the iterations on time; or the target kept its latency objectives and the VU pool was
 *   simply too small for the rate at that latency;
 * - `vus`: k6 warned that it ran out of VUs ("Insufficient VUs") under the same conditions.
 * Iterations dropped while the target broke its latency objectives and held most of the VUs are the target's doing.
 */
export function judgeGenerator(input: GeneratorInput): GeneratorVerdict {
  const signals: GeneratorSignal[] = [];
  const cpu = input.usage?.cpu;
  const cpusName = cpu === undefined ? "" : `${countNoun(cpu.cpus, "CPU")}`;
  if (cpu !== undefined && cpu.busiestShare >= GENERATOR_CPU_LIMIT) {
    signals.push({
      kind: "cpu",
      remedy: "instances",
      short: `k6 at ${percent(cpu.busiestShare)} of its ${cpusName}`,
      detail: `k6 used ${percent(cpu.busiestShare)} of the ${cpusName} it may run on over its busiest 5 s (${percent(GENERATOR_CPU_LIMIT)} is its limit): it sent and read late, so the latency it measured includes its own queueing.`,
    });
  }
  const allowed =
    input.plannedIterations === undefined ? 0 : Math.floor(input.plannedIterations * DROPPED_GUARD);
  const overDropped = input.plannedIterations !== undefined && input.droppedIterations > allowed;
  const ready = cpu?.ready;
  if (
    ready !== undefined &&
    cpu !== undefined &&
    cpu.busiestShare < GENERATOR_CPU_LIMIT &&
    ready.readyShare >= GENERATOR_CPU_LIMIT &&
    (overDropped || input.latencyKept?.kept === false)
  ) {
    signals.push({
      kind: "starved",
      remedy: "alone",
      short: `k6 kept from its ${cpusName} by other work`,
      detail: `k6's threads were ready to run for ${percent(ready.readyShare)} of the CPU time its ${cpusName} offered over their most ready 5 s but ran ${percent(ready.ranShare)}, waiting ${oneDecimal(ready.waitPerSliceMs)} ms for a CPU each time they got one (${percent(GENERATOR_CPU_LIMIT)} is its limit): other work held the CPUs, so k6 sent and read late and what broke may be its own lateness.`,
    });
  }
  const { maxVus, meanLatencyMs } = input;
  // The rate k6 achieved: the one asked for, less the share of iterations it did not run.
  const done =
    input.plannedIterations === undefined ||
    input.completedIterations === undefined ||
    input.plannedIterations <= 0
      ? 1
      : Math.min(1, input.completedIterations / input.plannedIterations);
  const peakRate = input.peakRate === undefined ? undefined : input.peakRate * done;
  const inFlight =
    peakRate === undefined || meanLatencyMs === undefined ? undefined : (peakRate * meanLatencyMs) / 1000;
  const account =
    inFlight === undefined || maxVus === undefined
      ? ""
      : `the target's answers kept about ${oneDecimal(inFlight)} of its ${countNoun(maxVus, "VU")} busy (${oneDecimal(peakRate ?? 0)}/s sent × ${oneDecimal(meanLatencyMs ?? 0)} ms, Little's law)`;
  const { vus } = input;
  // k6's own VU count decides where it has one; the mean latency by Little's law where it has not.
  const free =
    vus === undefined
      ? inFlight !== undefined && maxVus !== undefined && inFlight < maxVus * FREE_VU_SHARE
      : vus.busiest < vus.started * POOL_HELD_SHARE;
  const kept = !free && (account !== "" || vus !== undefined) && input.latencyKept?.kept === true;
  const pool =
    vus === undefined
      ? ""
      : `at most ${vus.busiest} of the ${vus.started} VUs k6 had started were busy at once`;
  const why = free
    ? vus === undefined
      ? `while ${account}: VUs were free by the target's account, so k6 itself did not start the iterations on time`
      : `while ${pool}: VUs were free, so k6 itself did not start the iterations on time`
    : `while the target kept its latency objectives (${input.latencyKept?.observed ?? ""}) and ${pool || account}: the VU pool, not the API, was too small for this rate at that latency`;
  if ((free || kept) && overDropped) {
    signals.push({
      kind: "dropped",
      remedy: free || input.vusAdjustable === false ? "instances" : "vus",
      short: `${countNoun(input.droppedIterations, "iteration")} dropped ${free ? "with VUs to spare" : "within the latency objectives"}`,
      detail: `k6 dropped ${countNoun(input.droppedIterations, "iteration")} (its guard allows ${allowed}) ${why}.`,
    });
  }
  const warnings = input.usage?.insufficientVus ?? 0;
  if ((free || kept) && warnings > 0) {
    signals.push({
      kind: "vus",
      remedy: free || input.vusAdjustable === false ? "instances" : "vus",
      short: free ? "k6 out of VUs the target did not hold" : "k6 out of VUs within the latency objectives",
      detail: `k6 warned ${countNoun(warnings, "time")} that it had no VU to start an iteration with ("Insufficient VUs") ${why}.`,
    });
  }
  const measured = [
    cpu === undefined
      ? "k6's CPU was not measured (k6 ran elsewhere, or this system has no /proc)"
      : `k6 used ${percent(cpu.busiestShare)} of its ${cpusName} over its busiest 5 s and ${percent(cpu.meanShare)} over the ${oneDecimal(cpu.seconds)} s it ran${cpu.processes > 1 ? ` (the busiest of ${cpu.processes} k6 processes)` : ""}${cpu.ready === undefined ? "" : `, its threads ready to run for at most ${percent(cpu.ready.readyShare)} of the CPU time its ${cpusName} offered (running ${percent(cpu.ready.ranShare)}, waiting ${oneDecimal(cpu.ready.waitPerSliceMs)} ms for a CPU each time)`}`,
    ...(account === "" ? [] : [account]),
    ...(pool === "" ? [] : [pool]),
    ...(input.plannedIterations === undefined
      ? []
      : [`${countNoun(input.droppedIterations, "iteration")} dropped of ${input.plannedIterations} planned`]),
  ].join("; ");
  return { limited: signals.length > 0, signals, measured: `${measured}.` };
}

/** The verdict line's clause for a limited generator: "the generator, not the API, limited this run (…): use …". */
export function generatorClause(verdict: GeneratorVerdict, what = "run"): string {
  return `the generator, not the API, limited this ${what} (${verdict.signals.map((s) => s.short).join("; ")}): ${generatorRemedy(verdict)}`;
}

/**
 * The clause for a run that failed on what no load generator explains (a contract violation, errors the API
 * answered) while k6 was at its own limit: the failure stands, and only its latency may be k6's.
 */
export function generatorTooClause(verdict: GeneratorVerdict): string {
  return `k6 was at its own limit too (${verdict.signals.map((s) => s.short).join("; ")}): ${generatorRemedy(verdict)}`;
}

/** What a report says of a limited generator, by whether the run failed anyway on what no generator explains. */
export function generatorHeadline(failedAnyway: boolean): {
  readonly title: string;
  readonly figures: string;
} {
  return failedAnyway
    ? {
        title: "k6 was at its own limit too",
        figures:
          "the run failed on what no load generator explains; its latency may include k6's own queueing",
      }
    : {
        title: "The generator, not the API, limited this run",
        figures: "its figures are k6's, not the target's",
      };
}
