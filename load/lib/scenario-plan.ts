import type { CapacityStep } from "./capacity-plan.ts";
import {
  DEFAULT_STEP_SECONDS,
  DEFAULT_STEP_WARM_UP_SECONDS,
  latencyLimitMs,
  stepVus,
} from "./capacity-plan.ts";
import { k6Duration } from "./duration.ts";
import type { IdleGapPlan } from "./idle-gap-plan.ts";
import { planIdleGaps } from "./idle-gap-plan.ts";
import { DEFAULT_LATENCY_OBJECTIVE, EVENT_DURATION } from "./metric-names.ts";
import type { RunConfig } from "./run-config.ts";
import { SPIKE_FACTOR } from "./scenario-catalogue.ts";
import { WARM_UP_EXEC, WARM_UP_SECONDS } from "./warm-up.ts";

/** One k6 scenario entry (a plain object, so this file stays free of k6 imports and unit-testable). */
export type ExecutorConfig = Readonly<Record<string, unknown>> & { readonly executor: string };

export interface ScenarioPlan {
  readonly executor: ExecutorConfig;
  /**
   * Runs before the executor (which then starts at its `startTime`): each pre-allocated VU fetches its first token
   * (the scenario module's `warmUp` export). Set for constant-rate scenarios whose client keeps its token.
   */
  readonly warmUp: ExecutorConfig | undefined;
  /** How long the warm-up runs before the executor starts (0: none). */
  readonly warmUpSeconds: number;
  /**
   * A capacity step's warm-up at its own rate, which is not judged: it runs before the executor, which then starts
   * at `judgedFromSeconds` and is the only part its objectives read.
   */
  readonly rateWarmUp?: ExecutorConfig | undefined;
  readonly judgedFromSeconds?: number | undefined;
  /** Iterations an open scenario schedules: the base of the dropped-iterations guard. */
  readonly plannedIterations: number | undefined;
  readonly idleGap: IdleGapPlan | undefined;
  /** How long the run should take when the target keeps up. */
  readonly expectedSeconds: number;
  /** An upper bound on the run's length, for the harness's own watchdog. */
  readonly maxSeconds: number;
}

interface Stage {
  readonly durationSeconds: number;
  readonly target: number;
}

/**
 * A constant rate starts at full speed: without a warm-up every pre-allocated VU fetches its first token in the
 * first second while events are due, and k6 drops iterations it would otherwise hold (bench:load --profile).
 * One iteration per VU, cut at WARM_UP_SECONDS (gracefulStop 0) so the VUs are free again when the rate starts:
 * k6 reuses VUs only between scenarios that do not overlap.
 */
function tokenWarmUp(vus: number): ExecutorConfig {
  return {
    executor: "per-vu-iterations",
    exec: WARM_UP_EXEC,
    vus,
    iterations: 1,
    maxDuration: k6Duration(WARM_UP_SECONDS),
    gracefulStop: "0s",
  };
}

/** Arrival-rate executors take whole iterations per time unit: a fractional rate is counted per minute. */
function arrivalRate(perSecond: number): { rate: number; timeUnit: string } {
  return Number.isInteger(perSecond)
    ? { rate: perSecond, timeUnit: "1s" }
    : { rate: Math.max(1, Math.round(perSecond * 60)), timeUnit: "1m" };
}

/** Iterations scheduled by a ramping-arrival-rate executor: the area under its rate curve. */
function stageIterations(startRate: number, stages: readonly Stage[]): number {
  let previous = startRate;
  let total = 0;
  for (const stage of stages) {
    total += ((previous + stage.target) / 2) * stage.durationSeconds;
    previous = stage.target;
  }
  return Math.round(total);
}

function rampingArrival(
  startRate: number,
  stages: readonly Stage[],
  preAllocatedVUs: number,
  maxVUs: number,
) {
  return {
    executor: "ramping-arrival-rate",
    startRate,
    timeUnit: "1s",
    preAllocatedVUs,
    maxVUs,
    stages: stages.map((stage) => ({ duration: k6Duration(stage.durationSeconds), target: stage.target })),
    gracefulStop: "10s",
  };
}

/**
 * Arrival-rate executors split their rate over the instances in proportion to each one's share of maxVUs
 * (k6 re-segments by maxVUs): a multiple of the instance count gives every instance an equal share.
 */
function maxVusFor(wanted: number, instances: number): number {
  return Math.ceil(wanted / instances) * instances;
}

function constantRate(
  rate: number,
  seconds: number,
  vus: { readonly preAllocated: number; readonly max: number },
): ExecutorConfig {
  return {
    executor: "constant-arrival-rate",
    rate,
    timeUnit: "1s",
    duration: k6Duration(seconds),
    preAllocatedVUs: vus.preAllocated,
    maxVUs: vus.max,
  };
}

/**
 * One capacity step: the warm-up at the step's rate, cut at its end (gracefulStop 0) so its VUs are free for the
 * judged stretch that starts then (k6 reuses VUs only between scenarios that do not overlap), and the judged stretch.
 * Its VUs are sized from the latency objective (capacity-plan.ts stepVus).
 */
function planCapacityStep(config: RunConfig, step: CapacityStep): ScenarioPlan {
  const rate = Math.max(1, Math.round(step.rate));
  const latency = { [EVENT_DURATION]: [DEFAULT_LATENCY_OBJECTIVE], ...config.thresholdOverrides };
  const vus = stepVus(rate, config.vus, config.instances, latencyLimitMs(latency));
  const seconds = step.warmUpSeconds + step.judgedSeconds;
  return {
    executor: {
      ...constantRate(rate, step.judgedSeconds, vus),
      gracefulStop: "10s",
      ...(step.warmUpSeconds > 0 ? { startTime: k6Duration(step.warmUpSeconds) } : {}),
    },
    warmUp: undefined,
    warmUpSeconds: 0,
    rateWarmUp:
      step.warmUpSeconds > 0
        ? { ...constantRate(rate, step.warmUpSeconds, vus), gracefulStop: "0s" }
        : undefined,
    judgedFromSeconds: step.warmUpSeconds,
    plannedIterations: rate * step.judgedSeconds,
    idleGap: undefined,
    expectedSeconds: seconds,
    maxSeconds: seconds + 10 + config.timeoutSeconds,
  };
}

/** Shapes each scenario's executor from the run configuration. */
export function planScenario(config: RunConfig): ScenarioPlan {
  const duration = config.durationSeconds ?? 30;
  const vus = config.vus;
  const instances = config.instances;
  switch (config.scenario) {
    case "sustained":
    case "soak": {
      // A client that fetches a token per iteration has nothing to warm up.
      const warmUp = config.clientModel === "token-per-iteration" ? undefined : tokenWarmUp(vus);
      const warmUpSeconds = warmUp === undefined ? 0 : WARM_UP_SECONDS;
      return {
        executor: {
          executor: "constant-arrival-rate",
          ...arrivalRate(config.rate),
          duration: k6Duration(duration),
          preAllocatedVUs: vus,
          maxVUs: maxVusFor(vus * 2, instances),
          gracefulStop: "10s",
          ...(warmUp === undefined ? {} : { startTime: k6Duration(warmUpSeconds) }),
        },
        warmUp,
        warmUpSeconds,
        plannedIterations: Math.round(config.rate * duration),
        idleGap: undefined,
        expectedSeconds: warmUpSeconds + duration,
        maxSeconds: warmUpSeconds + duration + 10,
      };
    }
    case "ramp": {
      const peak = Math.max(1, Math.round(config.rate));
      const stages = [
        { durationSeconds: duration * 0.5, target: peak },
        { durationSeconds: duration * 0.3, target: peak },
        { durationSeconds: duration * 0.2, target: 0 },
      ];
      return {
        executor: rampingArrival(1, stages, vus, maxVusFor(vus * 2, instances)),
        warmUp: undefined,
        warmUpSeconds: 0,
        plannedIterations: stageIterations(1, stages),
        idleGap: undefined,
        expectedSeconds: duration,
        maxSeconds: duration + 10,
      };
    }
    case "spike": {
      const base = Math.max(1, Math.round(config.rate));
      const peak = base * SPIKE_FACTOR;
      const stages = [
        { durationSeconds: duration * 0.3, target: base },
        { durationSeconds: duration * 0.05, target: peak },
        { durationSeconds: duration * 0.2, target: peak },
        { durationSeconds: duration * 0.05, target: base },
        { durationSeconds: duration * 0.4, target: base },
      ];
      return {
        executor: rampingArrival(base, stages, vus, maxVusFor(vus * (SPIKE_FACTOR + 1), instances)),
        warmUp: undefined,
        warmUpSeconds: 0,
        plannedIterations: stageIterations(base, stages),
        idleGap: undefined,
        expectedSeconds: duration,
        maxSeconds: duration + 10,
      };
    }
    case "idle-gap": {
      if (config.expiresInSeconds === undefined) {
        throw new Error("idle-gap plans its gaps from expires_in: set EH_EXPIRES_IN_S (the harness does)");
      }
      // These clients replace a token on their own, so no token would live through a whole cycle.
      if (config.clientModel === "cache-until-expiry" || config.clientModel === "token-per-iteration") {
        throw new Error(
          `idle-gap holds one token through each cycle of gaps; --client-model ${config.clientModel} replaces it on its own (use sliding or refresh-on-401)`,
        );
      }
      const plan = planIdleGaps(config.expiresInSeconds, config.marginSeconds, config.durationSeconds);
      // Requests may each take up to the timeout; the cap only stops a hung target from hanging the run.
      const maxSeconds = Math.ceil(
        plan.idleSecondsPerVu * 1.5 + plan.iterationsPerVu * plan.burst * 2 * config.timeoutSeconds + 10,
      );
      return {
        executor: {
          executor: "per-vu-iterations",
          vus,
          iterations: plan.iterationsPerVu,
          maxDuration: k6Duration(maxSeconds),
          gracefulStop: "5s",
        },
        warmUp: undefined,
        warmUpSeconds: 0,
        plannedIterations: undefined,
        idleGap: plan,
        expectedSeconds: plan.idleSecondsPerVu,
        maxSeconds: maxSeconds + 5,
      };
    }
    case "capacity":
      return planCapacityStep(
        config,
        config.capacityStep ?? {
          rate: config.rate,
          warmUpSeconds: DEFAULT_STEP_WARM_UP_SECONDS,
          judgedSeconds: DEFAULT_STEP_SECONDS,
        },
      );
    case "token-storm":
      return {
        executor: { executor: "constant-vus", vus, duration: k6Duration(duration), gracefulStop: "10s" },
        warmUp: undefined,
        warmUpSeconds: 0,
        plannedIterations: undefined,
        idleGap: undefined,
        expectedSeconds: duration,
        maxSeconds: duration + 10,
      };
  }
}

/**
 * An arrival-rate executor's highest rate (events a second) and the VUs it may use at most; undefined for a closed
 * model, which schedules no arrivals and drops none.
 */
export function arrivalCeiling(
  executor: ExecutorConfig,
): { readonly peakRate: number; readonly maxVus: number } | undefined {
  const { rate, timeUnit, startRate, stages, maxVUs } = executor as {
    rate?: unknown;
    timeUnit?: unknown;
    startRate?: unknown;
    stages?: unknown;
    maxVUs?: unknown;
  };
  if (typeof maxVUs !== "number") return undefined;
  const perSecond = timeUnit === "1m" ? 1 / 60 : 1;
  if (typeof rate === "number") return { peakRate: rate * perSecond, maxVus: maxVUs };
  if (typeof startRate !== "number" || !Array.isArray(stages)) return undefined;
  const targets = stages.map((stage) => Number((stage as { target?: unknown }).target ?? 0));
  return { peakRate: Math.max(startRate, ...targets) * perSecond, maxVus: maxVUs };
}
