import type { Resolution } from "../../load/index.ts";
import { CLIENT_MODEL_SUMMARIES } from "../../load/index.ts";
import { describeOutcomes } from "../accepted/describe-outcomes.ts";
import type { JunitCase, JunitSuite } from "../index.ts";
import {
  codeCell,
  codeSpan,
  formatDuration,
  formatDurationCompact,
  inlineCell,
  inlineText,
  overridesCell,
  paragraphText,
  renderJunitXml,
  tableHead,
  tableRow,
  warningCallout,
} from "../index.ts";
import { acceptedSection } from "./accepted-section.ts";
import type { CapacityFigure } from "./capacity-result.ts";
import { brokenByText, describeStop } from "./capacity-result.ts";
import type { CapacityStepResult } from "./capacity-step.ts";
import { generatorRemedy } from "./generator-limit.ts";
import type { ReportContext } from "./report-context.ts";
import type { LoadResult } from "./run-result.ts";
import { describeResult } from "./run-result.ts";
import { round } from "./summary-data.ts";

/** How the search was asked to run, as the reports say it. */
export interface CapacitySearchShape {
  readonly startRate: number;
  readonly factor: number;
  readonly resolution: Resolution;
  readonly maxRate: number;
  readonly maxSteps: number;
  readonly timeBoundSeconds: number;
  readonly stepWarmUpSeconds: number;
  readonly stepSeconds: number;
  /** The events each step's judged stretch holds at least, from the objectives (capacity-plan.ts eventsToJudge). */
  readonly eventsPerStep: number;
}

/** Everything a capacity run's reports say. */
export interface CapacityReport {
  readonly context: ReportContext;
  readonly search: CapacitySearchShape;
  /** The run's thresholds, as the user named them: each step's judged stretch is held to them. */
  readonly objectives: readonly { readonly metric: string; readonly expression: string }[];
  readonly steps: readonly CapacityStepResult[];
  readonly figure: CapacityFigure;
  readonly result: LoadResult;
  readonly runSeconds: number;
}

const OUTCOME_TITLE: Readonly<Record<CapacityStepResult["outcome"], string>> = {
  held: "held",
  broken: "BROKEN",
  generator: "GENERATOR",
  aborted: "stopped",
  "no-verdict": "could not decide",
};

function ms(value: number | undefined): string {
  return value === undefined ? "–" : String(round(value));
}

function percent(value: number): string {
  return `${round(value * 100)} %`;
}

/** `5 %` or `25/s`. */
export function describeResolution(resolution: Resolution): string {
  return resolution.kind === "relative" ? `${round(resolution.value * 100)} %` : `${resolution.value}/s`;
}

/** The search in one line, e.g. `from 20/s, ×2 a step up, bisecting to 5 %; at most 20000/s, 15 steps, 10m`. */
export function describeSearch(search: CapacitySearchShape): string {
  return (
    `from ${search.startRate}/s, ×${search.factor} a step up, bisecting to ${describeResolution(search.resolution)}; ` +
    `at most ${search.maxRate}/s, ${search.maxSteps} steps, ${formatDurationCompact(search.timeBoundSeconds * 1000)}`
  );
}

/** How each step runs, in one line. */
export function describeSteps(search: CapacitySearchShape): string {
  return (
    `${formatDurationCompact(search.stepWarmUpSeconds * 1000)} at the step's rate, not judged, then judged over at least ` +
    `${formatDurationCompact(search.stepSeconds * 1000)} and ${search.eventsPerStep} events`
  );
}

function verdictCell(step: CapacityStepResult): string {
  if (step.outcome === "broken") return `**BROKEN**: ${inlineCell(brokenByText(step))}`;
  if (step.outcome === "generator") {
    return `**GENERATOR**: ${inlineCell(step.generator.signals.map((s) => s.short).join("; "))}`;
  }
  if (step.outcome === "held") return "held";
  return `${OUTCOME_TITLE[step.outcome]}${step.reason === undefined ? "" : `: ${inlineCell(step.reason)}`}`;
}

function cpuCell(step: CapacityStepResult): string {
  return step.k6CpuShare === undefined ? "–" : `${Math.round(step.k6CpuShare * 100)} %`;
}

/** The table of every step, in the order they ran. */
export function stepTable(steps: readonly CapacityStepResult[]): string[] {
  return [
    ...tableHead(
      [
        "#",
        "phase",
        "rate /s",
        "judged",
        "events",
        "accepted /s",
        "p50 ms",
        "p95 ms",
        "p99 ms",
        "failed",
        "dropped",
        "k6 CPU",
        "verdict",
      ],
      [
        "right",
        "left",
        "right",
        "right",
        "right",
        "right",
        "right",
        "right",
        "right",
        "right",
        "right",
        "right",
      ],
    ),
    ...steps.map((s) =>
      tableRow([
        s.index,
        s.phase,
        s.rate,
        formatDurationCompact(s.judgedSeconds * 1000),
        s.events,
        round(s.acceptedPerSecond),
        ms(s.latency.p50),
        ms(s.latency.p95),
        ms(s.latency.p99),
        percent(s.failureRate),
        s.dropped,
        cpuCell(s),
        verdictCell(s),
      ]),
    ),
  ];
}

/**
 * The figure's section: the rate held, the rate broken and what broke it, and why the search ended. `text` writes
 * what came from elsewhere (metric names, observed values): Markdown escapes it, the terminal takes it as it is.
 */
function figureLines(figure: CapacityFigure, text: (value: string) => string = inlineText): string[] {
  const lines: string[] = [];
  if (figure.held === undefined) lines.push("- No rate held.");
  else {
    lines.push(
      `- Highest rate held: **${figure.held} events/s**${
        figure.resolution === undefined
          ? figure.broken === undefined
            ? ", a lower bound: no higher rate broke"
            : ""
          : `, within ${round(figure.resolution)}/s (${round((figure.resolution / figure.held) * 100)} %; asked: ${describeResolution(figure.asked)})`
      }.`,
    );
  }
  if (figure.broken !== undefined) {
    lines.push(
      `- First rate broken: **${figure.broken.rate} events/s**, by ${text(brokenByText(figure.broken))}.`,
    );
  }
  if (figure.limited !== undefined) {
    lines.push(
      `- The generator, not the API, limited the step at ${figure.limited.rate} events/s: ${text(
        figure.limited.generator.signals.map((s) => s.detail).join(" "),
      )} It counts neither as held nor as the API's capacity: ${text(generatorRemedy(figure.limited.generator))}.`,
    );
  }
  lines.push(`- The search ended because ${describeStop(figure.stop)}.`);
  return lines;
}

function figureTitle(figure: CapacityFigure): string {
  if (figure.held === undefined) return "none held";
  return figure.kind === "bracketed" ? `${figure.held} events/s` : `at least ${figure.held} events/s`;
}

/** `summary.md` of a capacity run. */
export function renderCapacityMarkdown(report: CapacityReport, baselineMarkdown?: string): string {
  const { context, figure, steps, result } = report;
  const violations = steps.reduce((n, s) => n + s.expiry.unexpected + s.expiry.outlived, 0);
  const extended = steps.reduce((n, s) => n + s.expiry.extended, 0);
  const limitedSteps = steps.filter((s) => s.outcome === "generator");
  const lines = [
    "# Load report: capacity",
    "",
    `**Result: ${inlineText(describeResult(result))}**`,
    "",
    ...context.warnings.flatMap((warning) => [warningCallout(warning), ""]),
    "| | |",
    "|---|---|",
    `| Target | ${inlineCell(context.targetLabel)} |`,
    `| Run id | ${codeCell(context.runId)} |`,
    ...(context.overrides === undefined || context.overrides.length === 0
      ? []
      : [`| Overrides | ${overridesCell(context.overrides)} |`]),
    `| Objectives | ${report.objectives.map((o) => `${codeCell(o.metric)} ${codeCell(o.expression)}`).join(", ")} |`,
    `| Search | ${inlineCell(describeSearch(report.search))} |`,
    `| Each step | ${inlineCell(describeSteps(report.search))} |`,
    `| Client model | ${codeCell(context.clientModel)}: ${inlineCell(CLIENT_MODEL_SUMMARIES[context.clientModel])} |`,
    `| expires_in / margin | ${context.expiresInSeconds === undefined ? "unknown" : `${context.expiresInSeconds}s`} / ${context.marginSeconds}s |`,
    `| Run time | ${formatDuration(report.runSeconds * 1000)} |`,
    "",
    `## Capacity: ${figureTitle(figure)}`,
    "",
    ...figureLines(figure),
    "",
    "## Steps",
    "",
    "Each step's figures are its judged stretch's; its warm-up is not judged. A step the generator limited is neither held nor broken.",
    "",
    ...stepTable(steps),
    "",
    ...(limitedSteps.length === 0
      ? []
      : [
          "## Load generator",
          "",
          ...limitedSteps.map(
            (s) =>
              `- Step ${s.index} at ${s.rate}/s: ${paragraphText(s.generator.signals.map((g) => g.detail).join(" "))}`,
          ),
          "",
        ]),
    "## Sliding expiry under load",
    "",
    violations > 0
      ? `**BROKEN**: ${violations} violations over the steps (tokens refused in use, or accepted past their idle lifetime): see ${codeSpan("token_expiries")} in the steps' ${codeSpan("summary.json")}.`
      : `No violation over the steps; ${extended} tokens stayed valid in use past expires_in + margin after their issue.`,
    "",
    ...acceptedSection(result.accepted),
    "Each step's own k6 output (options, end-of-test summary, log) is in `steps/`; `capacity.html` charts the rates against latency and failures.",
    "",
  ];
  const markdown = `${lines.join("\n")}\n`;
  return baselineMarkdown === undefined ? markdown : `${markdown}\n${baselineMarkdown}`;
}

/** The end of a capacity run in the terminal: the step table in plain text, the figure and the verdict. */
export function renderCapacityText(report: CapacityReport): string {
  const { figure, steps, result } = report;
  const row = (cells: readonly (string | number)[]) =>
    `  ${cells.map((cell, i) => String(cell).padStart(i === cells.length - 1 ? 0 : ([3, 7, 9, 8, 8, 8, 8, 7, 7][i] ?? 8))).join(" ")}`;
  const lines = [
    "",
    `  capacity · ${describeSearch(report.search)} · client model ${report.context.clientModel}`,
    "",
    row(["#", "rate/s", "events", "acc/s", "p50 ms", "p95 ms", "p99 ms", "failed", "dropped", "verdict"]),
    ...steps.map((s) =>
      row([
        s.index,
        s.rate,
        s.events,
        round(s.acceptedPerSecond),
        ms(s.latency.p50),
        ms(s.latency.p95),
        ms(s.latency.p99),
        percent(s.failureRate),
        s.dropped,
        s.outcome === "broken"
          ? `BROKEN: ${brokenByText(s)}`
          : s.outcome === "generator"
            ? `GENERATOR: ${s.generator.signals.map((g) => g.short).join("; ")}`
            : `${OUTCOME_TITLE[s.outcome]}${s.reason === undefined ? "" : `: ${s.reason}`}`,
      ]),
    ),
    "",
    `  CAPACITY: ${figureTitle(figure)}`,
    ...figureLines(figure, (value) => value).map((line) => `  ${line.replace(/\*\*/g, "")}`),
    "",
    ...(result.accepted.length === 0
      ? []
      : ["  ACCEPTED DEVIATIONS", ...describeOutcomes(result.accepted).map((line) => `    ${line}`), ""]),
    ...report.context.warnings.map((warning) => `  WARNING: ${warning}`),
    `  ${describeResult(result)}`,
    "",
  ];
  return `${lines.join("\n")}\n`;
}

/**
 * JUnit for CI: the capacity figure as one case (failing when no rate held or a contract broke, an error when the
 * run has no verdict), one case per step with its figures, and the load generator (skipped, with why, when it
 * limited a step).
 */
export function renderCapacityJunit(report: CapacityReport, extraSuites: readonly JunitSuite[] = []): string {
  const { figure, steps, result } = report;
  const suite = "load.capacity";
  const verdict = describeResult(result);
  const capacityCase: JunitCase = {
    name: "capacity",
    classname: suite,
    seconds: report.runSeconds,
    output: verdict,
    outcome:
      result.outcome === "passed"
        ? { kind: "passed" }
        : result.outcome === "failed"
          ? { kind: "failure", message: verdict, type: "capacity" }
          : { kind: "error", message: verdict, type: result.outcome },
  };
  const stepCases: JunitCase[] = steps.map((s) => ({
    name: `step ${s.index}: ${s.rate}/s`,
    classname: `${suite}.steps`,
    seconds: s.warmUpSeconds + s.judgedSeconds,
    output:
      `${OUTCOME_TITLE[s.outcome]}: ${s.events} events, ${round(s.acceptedPerSecond)}/s accepted, ` +
      `p50 ${ms(s.latency.p50)} ms, p95 ${ms(s.latency.p95)} ms, p99 ${ms(s.latency.p99)} ms, ` +
      `${percent(s.failureRate)} failed, ${s.dropped} dropped` +
      (s.outcome === "broken" ? `; broken by ${brokenByText(s)}` : "") +
      (s.outcome === "generator" ? `; ${s.generator.signals.map((g) => g.detail).join(" ")}` : ""),
    // A step that broke did its job: the search needs one. Only a step k6 could not finish is an error.
    outcome:
      s.outcome === "no-verdict" || s.outcome === "aborted"
        ? { kind: "error", message: s.reason ?? "no verdict", type: s.outcome }
        : { kind: "passed" },
  }));
  const generatorCase: JunitCase = {
    name: "load generator",
    classname: suite,
    seconds: 0,
    outcome:
      figure.limited === undefined
        ? { kind: "passed" }
        : {
            kind: "skipped",
            message: `the generator, not the API, limited the step at ${figure.limited.rate}/s: ${generatorRemedy(figure.limited.generator)}`,
          },
  };
  return renderJunitXml({
    name: "event-harness load",
    seconds: report.runSeconds,
    suites: [
      { name: suite, seconds: report.runSeconds, cases: [capacityCase, generatorCase, ...stepCases] },
      ...extraSuites,
    ],
  });
}

/** summary.json of a capacity run: no k6 metrics of its own (each step keeps its own), and the harness's account. */
export function renderCapacityJson(report: CapacityReport, baselineLine: string | null): string {
  const { figure, result } = report;
  return `${JSON.stringify(
    {
      metrics: {},
      state: { testRunDurationMs: Math.round(report.runSeconds * 1000) },
      harness: {
        context: report.context,
        result: { outcome: result.outcome, reason: result.reason ?? null },
        verdictLine: describeResult(result),
        capacity: {
          kind: figure.kind,
          held: figure.held ?? null,
          broken:
            figure.broken === undefined
              ? null
              : {
                  rate: figure.broken.rate,
                  by: figure.broken.brokenBy.map((t) => ({
                    metric: t.metric,
                    expression: t.expression,
                    observed: t.observed ?? null,
                  })),
                  reason: figure.broken.reason ?? null,
                },
          limitedAt: figure.limited?.rate ?? null,
          resolution: figure.resolution ?? null,
          asked: figure.asked,
          stop: figure.stop,
          search: report.search,
          objectives: report.objectives,
          steps: report.steps,
        },
        failedThresholds: result.failedThresholds,
        accepted: result.accepted,
        regressed: result.regressed,
        baseline: baselineLine,
      },
    },
    null,
    2,
  )}\n`;
}
