import type { ClientModel, IdleGapPlan, RunConfig, ScenarioName, ScenarioPlan } from "../../load/index.ts";
import { arrivalCeiling, SCENARIOS } from "../../load/index.ts";
import type { GeneratorUsage } from "./generator-limit.ts";

/** One k6 instance's own counts, shown next to the merged totals of a run split over several instances. */
export interface InstanceTotals {
  /** Its execution segment, e.g. `0:1/2`. */
  readonly segment: string;
  readonly eventsAccepted: number;
  readonly eventsRejected: number;
  readonly iterations: number;
  readonly droppedIterations: number;
  readonly tokenRequests: number;
}

/** What the reports say about the run besides k6's numbers; holds no secret. */
export interface ReportContext {
  readonly scenario: ScenarioName;
  readonly runId: string;
  readonly targetLabel: string;
  readonly clientModel: ClientModel;
  /** Events per second (open scenarios). */
  readonly rate: number | undefined;
  readonly durationSeconds: number | undefined;
  readonly vus: number;
  readonly expiresInSeconds: number | undefined;
  readonly marginSeconds: number;
  readonly plannedIterations: number | undefined;
  /** Seconds the token warm-up ran before the rate started (0: none); rates are over the time after it. */
  readonly warmUpSeconds: number;
  readonly idleGap: IdleGapPlan | undefined;
  /** The highest arrival rate asked for (events a second) and the VUs k6 could use; undefined for closed models. */
  readonly arrivals?: { readonly peakRate: number; readonly maxVus: number };
  /** What the k6 processes used while they ran: their CPU, and their warnings that VUs ran out. */
  readonly generator?: GeneratorUsage;
  /** Set when the run was split over several k6 instances whose results were merged. */
  readonly instances?: readonly InstanceTotals[];
  /** Said at the top of every report (e.g. that TLS was not verified). */
  readonly warnings: readonly string[];
  /** What the user set over the harness's own choice or the config file, names only (`--token-param NAME`). */
  readonly overrides?: readonly string[];
  /** k6's warning that the scenario ran out of VUs (`Insufficient VUs, reached 5 active VUs …`), when it gave one. */
  readonly vuShortage?: string;
}

/** The report context of a run: its configuration (credentials left out) and plan. */
export function reportContext(
  config: RunConfig,
  plan: ScenarioPlan,
  warnings: readonly string[] = [],
  overrides: readonly string[] = [],
): ReportContext {
  const arrivals = arrivalCeiling(plan.executor);
  return {
    scenario: config.scenario,
    runId: config.runId,
    targetLabel: config.targetLabel,
    clientModel: config.clientModel,
    rate: SCENARIOS[config.scenario].usesRate ? config.rate : undefined,
    durationSeconds: config.durationSeconds,
    vus: config.vus,
    expiresInSeconds: config.expiresInSeconds,
    marginSeconds: config.marginSeconds,
    plannedIterations: plan.plannedIterations,
    warmUpSeconds: plan.warmUpSeconds,
    idleGap: plan.idleGap,
    ...(arrivals === undefined ? {} : { arrivals }),
    warnings,
    ...(overrides.length === 0 ? {} : { overrides }),
  };
}
