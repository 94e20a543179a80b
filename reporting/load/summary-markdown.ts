import { CLIENT_MODEL_SUMMARIES } from "../../load/index.ts";
import {
  codeCell,
  countNoun,
  formatDuration,
  formatDurationCompact,
  inlineCell,
  inlineText,
  overridesCell,
  paragraphText,
  warningCallout,
} from "../index.ts";
import { acceptedSection } from "./accepted-section.ts";
import { droppedCause } from "./dropped-cause.ts";
import type { GeneratorVerdict } from "./generator-limit.ts";
import { generatorHeadline, generatorRemedy } from "./generator-limit.ts";
import type { ReportContext } from "./report-context.ts";
import type { ReportFacts } from "./report-facts.ts";
import type { LoadResult, ThresholdStatus } from "./run-result.ts";
import { describeResult, staleWarning, thresholdStatus } from "./run-result.ts";
import type { ThresholdResult } from "./summary-data.ts";
import { round } from "./summary-data.ts";
import type { SlidingExpiryVerdict } from "./verdict.ts";

export interface ReportInput {
  readonly context: ReportContext;
  readonly facts: ReportFacts;
  readonly thresholds: readonly ThresholdResult[];
  readonly verdict: SlidingExpiryVerdict;
  /** Whether the load generator, not the target, limited the run. */
  readonly generator: GeneratorVerdict;
  readonly result: LoadResult;
}

const THRESHOLD_MARK: Record<ThresholdStatus, string> = {
  PASS: "✓ pass",
  FAIL: "✗ FAIL",
  WAIVED: "~ WAIVED",
};

/** How each verdict level is written in reports. */
export const VERDICT_TITLE = {
  held: "HELD",
  broken: "BROKEN",
  inconclusive: "INCONCLUSIVE",
  "not-exercised": "NOT EXERCISED",
} as const;

/** The load profile in one line, e.g. `20 events/s, for 30s, 5 VUs`: durations as k6 options write them. */
export function describeLoad(context: ReportContext): string {
  const parts: string[] = [];
  if (context.rate !== undefined) parts.push(`${context.rate} events/s`);
  if (context.idleGap) {
    const gaps = context.idleGap;
    parts.push(
      `${countNoun(gaps.cycles, "cycle")} of gaps ${gaps.midGapSeconds}s, ${gaps.shortGaps} × ${gaps.shortGapSeconds}s, ${gaps.longGapSeconds}s, bursts of ${gaps.burst}`,
    );
  } else if (context.durationSeconds !== undefined) {
    parts.push(`for ${formatDurationCompact(context.durationSeconds * 1000)}`);
  }
  parts.push(countNoun(context.vus, "VU"));
  if (context.warmUpSeconds > 0)
    parts.push(`after a ${formatDurationCompact(context.warmUpSeconds * 1000)} token warm-up`);
  return parts.join(", ");
}

/** `summary.md`: throughput, latency percentiles, token metrics, thresholds and the sliding-expiry verdict. */
export function renderMarkdown({
  context,
  facts,
  thresholds,
  verdict,
  generator,
  result,
}: ReportInput): string {
  const expected =
    verdict.expectedIdleExpiries === undefined ? "" : ` of ${verdict.expectedIdleExpiries} expected`;
  const cause = droppedCause(context, facts.droppedIterations);
  const lines = [
    `# Load report: ${context.scenario}`,
    "",
    `**Result: ${inlineText(describeResult(result))}** · sliding expiry: **${VERDICT_TITLE[verdict.level]}**`,
    "",
    ...[...staleWarning(result), ...context.warnings].flatMap((warning) => [warningCallout(warning), ""]),
    "| | |",
    "|---|---|",
    `| Target | ${inlineCell(context.targetLabel)} |`,
    `| Run id | ${codeCell(context.runId)} |`,
    ...(context.overrides === undefined || context.overrides.length === 0
      ? []
      : [`| Overrides | ${overridesCell(context.overrides)} |`]),
    `| Load | ${inlineCell(describeLoad(context))} |`,
    `| Client model | ${codeCell(context.clientModel)}: ${inlineCell(CLIENT_MODEL_SUMMARIES[context.clientModel])} |`,
    `| expires_in / margin | ${context.expiresInSeconds === undefined ? "unknown" : `${context.expiresInSeconds}s`} / ${context.marginSeconds}s |`,
    `| Run time | ${formatDuration(facts.runSeconds * 1000)} |`,
    "",
    `## Sliding expiry: ${VERDICT_TITLE[verdict.level]}`,
    "",
    ...verdict.reasons.map((reason) => `- ${paragraphText(reason)}`),
    "",
    "| Unexpected expiries (violations) | Tokens outliving idle gaps (violations) | Confirmed idle expiries | Tokens valid past expires_in after issue | Tokens valid after idling over half of expires_in |",
    "|---:|---:|---:|---:|---:|",
    `| ${verdict.unexpectedExpiries} | ${verdict.idleOutlived} | ${[verdict.idleExpiries, verdict.extendedTokens, verdict.idleSurvivals].map((n) => `${n}${expected}`).join(" | ")} |`,
    "",
    "## Thresholds",
    "",
    "| Result | Metric | Threshold | Observed |",
    "|---|---|---|---|",
    ...thresholds.map(
      (t) =>
        `| ${THRESHOLD_MARK[thresholdStatus(t, result)]} | ${codeCell(t.metric)} | ${codeCell(t.expression)} | ${inlineCell(t.observed ?? "–")} |`,
    ),
    "",
    ...acceptedSection(result.accepted),
    "## Throughput",
    "",
    `- Events accepted: ${facts.eventsAccepted} (${round(facts.acceptedPerSecond)}/s)`,
    `- Events not accepted: ${facts.eventsRejected} (${round(facts.errorRate * 100)}%)${
      facts.rejectedByStatus.length > 0
        ? `: ${facts.rejectedByStatus.map(([status, n]) => `${status} × ${n}`).join(", ")}`
        : ""
    }`,
    `- Iterations: ${facts.iterations}${context.plannedIterations === undefined ? "" : ` of ${context.plannedIterations} planned`}, dropped: ${facts.droppedIterations}${cause === undefined ? "" : `: ${inlineText(cause)}`}`,
    "",
    ...instancesTable(context, facts),
    ...generatorSection(generator, result.outcome === "failed"),
    "## Latency (ms)",
    "",
    latencyTable(facts),
    "",
    "## Tokens",
    "",
    `- Token requests: ${facts.tokenRequests}${
      facts.tokenRequestsByReason.length > 0
        ? ` (${facts.tokenRequestsByReason.map(([reason, n]) => `${reason} ${n}`).join(", ")})`
        : ""
    }`,
    `- Refreshes (a held token replaced): ${facts.tokenRefreshes}`,
    `- Failed token requests: ${facts.tokenFailures}`,
    "",
  ];
  return `${lines.join("\n")}\n`;
}

/**
 * Whether k6 kept up: what was measured, and each signal that says it did not; `failedAnyway` when the run failed on
 * what no load generator explains.
 */
export function generatorSection(generator: GeneratorVerdict, failedAnyway = false): string[] {
  const headline = generatorHeadline(failedAnyway);
  return [
    `## Load generator: ${generator.limited ? "LIMITED" : "kept up"}`,
    "",
    ...(generator.limited
      ? [
          `**${headline.title}: ${inlineText(generatorRemedy(generator))}.** ${headline.figures.charAt(0).toUpperCase()}${headline.figures.slice(1)}.`,
          "",
          ...generator.signals.map((s) => `- ${paragraphText(s.detail)}`),
          "",
        ]
      : []),
    `Measured: ${paragraphText(generator.measured)}`,
    "",
  ];
}

/** Each instance's counts and the merged totals, which are their sums. */
function instancesTable(context: ReportContext, facts: ReportFacts): string[] {
  const instances = context.instances;
  if (instances === undefined || instances.length === 0) return [];
  return [
    `## Instances: ${instances.length} (merged: counts add, latency from the pooled samples, thresholds on the merged data)`,
    "",
    "| Instance | Segment | Events accepted | Not accepted | Iterations | Dropped | Token requests |",
    "|---|---|---:|---:|---:|---:|---:|",
    ...instances.map(
      (t, i) =>
        `| ${i + 1} | ${codeCell(t.segment)} | ${t.eventsAccepted} | ${t.eventsRejected} | ${t.iterations} | ${t.droppedIterations} | ${t.tokenRequests} |`,
    ),
    `| **merged** | | ${facts.eventsAccepted} | ${facts.eventsRejected} | ${facts.iterations} | ${facts.droppedIterations} | ${facts.tokenRequests} |`,
    "",
  ];
}

function latencyTable(facts: ReportFacts): string {
  const rows: Array<[string, ReadonlyArray<readonly [string, number]>]> = [
    ["events", facts.eventLatency],
    ["token requests", facts.tokenLatency],
  ];
  const stats = [...new Set(rows.flatMap(([, values]) => values.map(([stat]) => stat)))];
  if (stats.length === 0) return "_no requests were measured_";
  return [
    `| Requests | ${stats.join(" | ")} |`,
    `|---|${stats.map(() => "---:").join("|")}|`,
    ...rows.map(([label, values]) => {
      const byStat = new Map(values);
      const cells = stats.map((stat) => {
        const ms = byStat.get(stat);
        return ms === undefined ? "–" : String(round(ms));
      });
      return `| ${label} | ${cells.join(" | ")} |`;
    }),
  ].join("\n");
}
