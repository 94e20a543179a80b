import { describeOutcomes } from "../accepted/describe-outcomes.ts";
import { formatDuration } from "../index.ts";
import { droppedCause } from "./dropped-cause.ts";
import type { ThresholdStatus } from "./run-result.ts";
import { describeResult, staleWarning, thresholdStatus } from "./run-result.ts";
import { round } from "./summary-data.ts";
import type { ReportInput } from "./summary-markdown.ts";
import { describeLoad, VERDICT_TITLE } from "./summary-markdown.ts";

const TEXT_MARK: Record<ThresholdStatus, string> = { PASS: "✓", FAIL: "✗", WAIVED: "~ WAIVED" };

/** The end-of-test summary k6 prints instead of its own: short, plain, and with the verdict. */
export function renderText({ context, facts, thresholds, verdict, generator, result }: ReportInput): string {
  const latency = (values: ReadonlyArray<readonly [string, number]>) =>
    values.length === 0 ? "–" : values.map(([stat, ms]) => `${stat}=${formatDuration(ms)}`).join(" · ");
  const cause = droppedCause(context, facts.droppedIterations);
  const lines = [
    "",
    `  ${context.scenario} · ${describeLoad(context)} · client model ${context.clientModel}`,
    "",
    "  THRESHOLDS",
    ...thresholds.map(
      (t) =>
        `    ${TEXT_MARK[thresholdStatus(t, result)]} ${t.metric} ${t.expression}${t.observed ? `  (${t.observed})` : ""}`,
    ),
    "",
    `  SLIDING EXPIRY: ${VERDICT_TITLE[verdict.level]}`,
    ...verdict.reasons.map((reason) => `    ${reason}`),
    "",
    `  events   accepted ${facts.eventsAccepted} (${round(facts.acceptedPerSecond)}/s), ` +
      `not accepted ${facts.eventsRejected}${
        facts.rejectedByStatus.length > 0
          ? ` [${facts.rejectedByStatus.map(([status, n]) => `${status}×${n}`).join(" ")}]`
          : ""
      }, dropped iterations ${facts.droppedIterations}${cause === undefined ? "" : `: ${cause}`}`,
    ...(context.instances === undefined
      ? []
      : [
          `  instances ${context.instances.length}: accepted ${context.instances.map((t) => t.eventsAccepted).join(" + ")} = ${facts.eventsAccepted}, ` +
            `iterations ${context.instances.map((t) => t.iterations).join(" + ")} = ${facts.iterations}`,
        ]),
    `  latency  ${latency(facts.eventLatency)}`,
    `  k6       ${generator.limited ? "LIMITED the run: " : ""}${generator.measured}`,
    ...generator.signals.map((signal) => `    ${signal.detail}`),
    `  tokens   requests ${facts.tokenRequests}, refreshes ${facts.tokenRefreshes}, failed ${facts.tokenFailures}, ` +
      `latency ${latency(facts.tokenLatency)}`,
    "",
    ...(result.accepted.length === 0
      ? []
      : ["  ACCEPTED DEVIATIONS", ...describeOutcomes(result.accepted).map((line) => `    ${line}`), ""]),
    ...context.warnings.map((warning) => `  WARNING: ${warning}`),
    ...staleWarning(result).map((warning) => `  WARNING: ${warning}`),
    `  ${describeResult(result)}`,
    "",
  ];
  return `${lines.join("\n")}\n`;
}
