import { countNoun } from "../index.ts";
import type { ReportContext } from "./report-context.ts";

/**
 * Why iterations were dropped, when k6 said: an arrival-rate scenario starts each iteration on a free VU, and each
 * VU is held until the target answers, so a slow target or too few VUs drop iterations. Undefined when none was
 * dropped or k6 gave no reason.
 */
export function droppedCause(context: ReportContext, dropped: number): string | undefined {
  if (dropped === 0 || context.vuShortage === undefined) return undefined;
  const pace = context.rate === undefined ? "the scenario's arrival rate" : `${context.rate} events/s`;
  return (
    `k6 ran out of VUs ("${context.vuShortage}"): each iteration holds a VU until the target answers, so ` +
    `${countNoun(context.vus, "VU")} could not keep up ${pace}; raise --vus or lower --rate`
  );
}
