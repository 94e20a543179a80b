import type { RunConfig, ScenarioPlan } from "../../load/index.ts";
import { defaultThresholds, mergeThresholds } from "../../load/index.ts";

/**
 * The objectives each capacity step is held to, as the reports and the baseline name them: the run's thresholds
 * (the scenario's defaults, then --threshold), the dropped-iterations guard in words since its count follows each
 * step's rate.
 */
export function capacityObjectives(config: RunConfig, plan: ScenarioPlan): Record<string, string[]> {
  const objectives = mergeThresholds(defaultThresholds(config, plan), config.thresholdOverrides);
  if (config.thresholdOverrides.dropped_iterations === undefined && objectives.dropped_iterations) {
    objectives.dropped_iterations = ["count<=1% of planned"];
  }
  return objectives;
}

/** The objectives as a baseline keeps them: `metric expression`, sorted. */
export function objectiveKeys(objectives: Readonly<Record<string, readonly string[]>>): string[] {
  return Object.entries(objectives)
    .flatMap(([metric, expressions]) => expressions.map((expression) => `${metric} ${expression}`))
    .sort();
}
