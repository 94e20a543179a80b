import { countNoun } from "../../core/index.ts";
import type { RunConfig, ScenarioPlan } from "../../load/index.ts";
import { SCENARIOS } from "../../load/index.ts";
import { formatDurationCompact } from "../../reporting/index.ts";

/** The run in one line: the scenario's load, the client model and token lifetime, and about how long it takes. */
export function describeRun(config: RunConfig, plan: ScenarioPlan): string {
  const spec = SCENARIOS[config.scenario];
  const load = plan.idleGap
    ? `${countNoun(config.vus, "VU")} × ${countNoun(plan.idleGap.cycles, "cycle")} of gaps ${plan.idleGap.midGapSeconds}s, ${plan.idleGap.shortGaps} × ${plan.idleGap.shortGapSeconds}s, ${plan.idleGap.longGapSeconds}s`
    : `${spec.usesRate ? `${config.rate}/s, ` : ""}${countNoun(config.vus, "VU")}, ${formatDurationCompact((config.durationSeconds ?? 0) * 1000)}`;
  return `${config.scenario}: ${load}, client model ${config.clientModel}, expires_in ${config.expiresInSeconds === undefined ? "not asked" : `${config.expiresInSeconds}s`} (margin ${config.marginSeconds}s), about ${formatDurationCompact(plan.expectedSeconds * 1000)}`;
}
