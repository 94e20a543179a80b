import type { JunitCase, JunitSuite } from "../index.ts";
import { formatDuration, inlineCell, inlineText, tableHead, tableRow } from "../index.ts";
import type { ContractComparison } from "./compare-contract.ts";
import type { FigureComparison, LoadComparison } from "./compare-load.ts";
import { comparisonStatus, notJudged } from "./compare-load.ts";

function where(figure: FigureComparison): string {
  return figure.window === undefined
    ? "whole run"
    : `window ${figure.window.fromSeconds}–${figure.window.toSeconds} s`;
}

function value(figure: FigureComparison, which: "baseline" | "candidate"): string {
  const v = figure[which];
  return v === undefined ? "—" : figure.format(v);
}

function figureLine(figure: FigureComparison): string {
  return `${figure.status.padEnd(12)} ${figure.label}${figure.window ? ` (${where(figure)})` : ""}: ${value(figure, "baseline")} → ${value(figure, "candidate")}; ${figure.reason}`;
}

const both = (a: number, b: number) => (a === b ? String(a) : `${a} and ${b}`);

/** "6 samples"; "20 samples from 2 units of 500 ms" when the samples of a unit are not independent. */
function counted(figure: FigureComparison): string {
  const { baseline, candidate, units } = figure.samples;
  const samples = `${both(baseline, candidate)} sample${baseline === 1 && candidate === 1 ? "" : "s"}`;
  if (units === undefined || (units.baseline === baseline && units.candidate === candidate)) return samples;
  return `${samples} from ${both(units.baseline, units.candidate)} unit${units.baseline === 1 && units.candidate === 1 ? "" : "s"} of ${formatDuration(units.ms)}`;
}

/** ", 23.3 → 176 ms": what a figure that was not judged read on each side, so a large change is still seen. */
function values(figure: FigureComparison): string {
  if (figure.baseline === undefined || figure.candidate === undefined) return "";
  return `, ${figure.format(figure.baseline)} → ${figure.format(figure.candidate)}`;
}

function shiftOf(figure: FigureComparison): string {
  const shift = figure.shift;
  if (shift === undefined) return "";
  const sign = shift.estimate > 0 ? "+" : "";
  return ` ${sign}${figure.format(shift.estimate)}`;
}

/**
 * The comparison in one clause for a verdict line: `baseline UNCHANGED (token latency not judged: 6 samples)`,
 * `baseline REGRESSED (events p95 +8.10 ms)`; what was not judged is always named.
 */
export function comparisonLine(comparison: LoadComparison): string {
  const status = comparisonStatus(comparison);
  const all = [...comparison.figures, ...comparison.windows];
  const named = (wanted: FigureComparison["status"], words: (f: FigureComparison) => string) =>
    all
      .filter((f) => f.status === wanted)
      .map((f) => `${f.short}${f.window ? ` (${where(f)})` : ""}${words(f)}`);
  const notes = [
    ...named("REGRESSED", shiftOf),
    ...named("WAIVED", (f) => `${shiftOf(f)} WAIVED`),
    ...named("INCONCLUSIVE", (f) => `: the interval reaches past ${f.format(f.margin)}`),
    ...named("IMPROVED", shiftOf),
    ...notJudged(comparison).map((f) => `${f.short} not judged: ${counted(f)}${values(f)}`),
  ];
  const judgedNone = all.every((f) => f.status === "NOT JUDGED");
  return `baseline ${status}${judgedNone ? ": no figure had the samples to be judged" : ""}${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`;
}

/** The comparison for the terminal: one line per figure, then the windows that did not stay unchanged. */
export function renderComparisonText(comparison: LoadComparison, baselineName: string): string {
  const lines = [`  Baseline comparison against ${baselineName}: ${comparisonLine(comparison)}`];
  for (const note of comparison.notes) lines.push(`    Note: ${note}`);
  for (const figure of comparison.figures) lines.push(`    ${figureLine(figure)}`);
  if (comparison.windowsJudged > 0) {
    lines.push(
      `    ${comparison.windowsJudged} window(s) of ${comparison.windowSeconds} s judged on their own${comparison.windows.length === 0 ? ": all UNCHANGED" : ":"}`,
    );
    for (const figure of comparison.windows) lines.push(`      ${figureLine(figure)}`);
  }
  return `${lines.join("\n")}\n`;
}

/** The comparison as a summary.md section. */
export function renderComparisonMarkdown(comparison: LoadComparison, baselineName: string): string {
  const rows = [...comparison.figures, ...comparison.windows].map((f) =>
    tableRow([
      f.status === "REGRESSED" ? `**${f.status}**` : f.status,
      f.label,
      where(f),
      value(f, "baseline"),
      value(f, "candidate"),
      inlineCell(f.reason),
    ]),
  );
  return [
    "## Baseline comparison",
    "",
    `Against ${inlineText(baselineName)}: **${inlineText(comparisonLine(comparison))}**. Each events figure is measured per stretch of time holding enough events for it, token latency per request, and compared by the Mann-Whitney U test; the Hodges-Lehmann shift's interval must clear the change that matters for REGRESSED or IMPROVED, and lie within it for UNCHANGED. A figure with too few samples to tell is NOT JUDGED and left out of the verdict.${comparison.windowsJudged > 0 ? ` ${comparison.windowsJudged} window(s) of ${comparison.windowSeconds} s were judged on their own; only those not UNCHANGED are listed.` : ""}`,
    "",
    ...comparison.notes.map((note) => `- Note: ${inlineText(note)}`),
    ...(comparison.notes.length > 0 ? [""] : []),
    ...tableHead(["status", "figure", "where", "baseline", "this run", "why"]),
    ...rows,
    "",
  ].join("\n");
}

/** The comparison as a JUnit suite: a REGRESSED figure fails; INCONCLUSIVE, NOT JUDGED and WAIVED ones are skipped with their reason. */
export function comparisonJunitSuite(comparison: LoadComparison, suiteName: string): JunitSuite {
  const cases: JunitCase[] = [...comparison.figures, ...comparison.windows].map((f) => ({
    name: `${f.id}${f.window ? ` ${where(f)}` : ""}`,
    classname: `${suiteName}.baseline`,
    seconds: 0,
    output: `${value(f, "baseline")} → ${value(f, "candidate")}: ${f.reason}`,
    outcome:
      f.status === "REGRESSED"
        ? { kind: "failure", message: `REGRESSED: ${f.reason}`, type: "baseline" }
        : f.status === "INCONCLUSIVE" || f.status === "NOT JUDGED" || f.status === "WAIVED"
          ? { kind: "skipped", message: `${f.status}: ${f.reason}` }
          : { kind: "passed" },
  }));
  return { name: `${suiteName}.baseline`, seconds: 0, cases };
}

/**
 * A contract comparison for the terminal and summary: how the runs differ, what newly fails, what got fixed, what
 * ran on one side only, what else changed. Check ids and statuses come from files: `clean` makes them inert.
 */
export function renderContractComparisonText(
  comparison: ContractComparison,
  clean: (text: string) => string,
): string {
  const list = (changes: ContractComparison["newlyFailing"]) =>
    changes.map(
      (c) => `      ${clean(c.id)}: ${clean(c.baseline ?? "not run")} → ${clean(c.candidate ?? "not run")}`,
    );
  return [
    `  Contract comparison: ${comparison.newlyFailing.length > 0 ? "REGRESSED" : "no check newly fails"}`,
    ...(comparison.differences.length > 0
      ? [`    The runs differ: ${comparison.differences.map(clean).join("; ")}`]
      : []),
    `    newly failing: ${comparison.newlyFailing.length}`,
    ...list(comparison.newlyFailing),
    `    fixed: ${comparison.fixed.length}`,
    ...list(comparison.fixed),
    `    newly run: ${comparison.newlyRun.length}`,
    ...list(comparison.newlyRun),
    `    no longer run: ${comparison.noLongerRun.length}`,
    ...list(comparison.noLongerRun),
    `    other changes: ${comparison.otherChanges.length}`,
    ...list(comparison.otherChanges),
    `    unchanged: ${comparison.unchanged}`,
    "",
  ].join("\n");
}
