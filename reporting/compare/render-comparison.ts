import type { JunitCase, JunitSuite } from "../index.ts";
import { inlineCell, inlineText, tableHead, tableRow } from "../index.ts";
import type { ContractComparison } from "./compare-contract.ts";
import type { FigureComparison, LoadComparison } from "./compare-load.ts";
import { comparisonStatus } from "./compare-load.ts";

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

/** The comparison for the terminal: one line per figure, then the windows that did not stay unchanged. */
export function renderComparisonText(comparison: LoadComparison, baselineName: string): string {
  const lines = [`  Baseline comparison against ${baselineName}: ${comparisonStatus(comparison)}`];
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
    `Against ${inlineText(baselineName)}: **${comparisonStatus(comparison)}**. Each figure is measured per unit of time and compared by the Mann-Whitney U test; the Hodges-Lehmann shift's interval must clear the change that matters for REGRESSED or IMPROVED.${comparison.windowsJudged > 0 ? ` ${comparison.windowsJudged} window(s) of ${comparison.windowSeconds} s were judged on their own; only those not UNCHANGED are listed.` : ""}`,
    "",
    ...tableHead(["status", "figure", "where", "baseline", "this run", "why"]),
    ...rows,
    "",
  ].join("\n");
}

/** The comparison as a JUnit suite: a REGRESSED figure fails, an INCONCLUSIVE one is skipped with its reason. */
export function comparisonJunitSuite(comparison: LoadComparison, suiteName: string): JunitSuite {
  const cases: JunitCase[] = [...comparison.figures, ...comparison.windows].map((f) => ({
    name: `${f.id}${f.window ? ` ${where(f)}` : ""}`,
    classname: `${suiteName}.baseline`,
    seconds: 0,
    output: `${value(f, "baseline")} → ${value(f, "candidate")}: ${f.reason}`,
    outcome:
      f.status === "REGRESSED"
        ? { kind: "failure", message: `REGRESSED: ${f.reason}`, type: "baseline" }
        : f.status === "INCONCLUSIVE"
          ? { kind: "skipped", message: `INCONCLUSIVE: ${f.reason}` }
          : { kind: "passed" },
  }));
  return { name: `${suiteName}.baseline`, seconds: 0, cases };
}

/** A contract comparison for the terminal and summary: what newly fails, what got fixed, what else changed. */
export function renderContractComparisonText(comparison: ContractComparison): string {
  const list = (changes: ContractComparison["newlyFailing"]) =>
    changes.map((c) => `      ${c.id}: ${c.baseline ?? "not run"} → ${c.candidate ?? "not run"}`);
  return [
    `  Contract comparison: ${comparison.newlyFailing.length > 0 ? "REGRESSED" : "no check newly fails"}`,
    `    newly failing: ${comparison.newlyFailing.length}`,
    ...list(comparison.newlyFailing),
    `    fixed: ${comparison.fixed.length}`,
    ...list(comparison.fixed),
    `    other changes: ${comparison.otherChanges.length}`,
    ...list(comparison.otherChanges),
    `    unchanged: ${comparison.unchanged}`,
    "",
  ].join("\n");
}
