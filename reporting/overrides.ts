import { codeCell, codeSpan } from "./markdown.ts";

/**
 * The overrides of a run (names only: a token parameter's name is the user's text, its value never given here) as
 * summary.md says them, each in a code span; empty when the user overrode nothing.
 */
export function overridesMarkdown(overrides: readonly string[] | undefined): string {
  return overrides === undefined || overrides.length === 0
    ? ""
    : `Overrides: ${overrides.map(codeSpan).join(", ")}.`;
}

/** The same, for a table cell, where a pipe would end the cell. */
export function overridesCell(overrides: readonly string[]): string {
  return overrides.map(codeCell).join(", ");
}
