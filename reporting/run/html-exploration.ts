import type { CheckResult, ClassExploration } from "../../contracts/index.ts";
import { escapeHtml } from "./html-escape.ts";

/** What a class's expectation asks, in the table's words. */
const EXPECTS: Readonly<Record<string, string>> = {
  accepted: "accepted",
  refused: "refused",
  answered: "no 5xx",
};

const OUTCOMES: Readonly<Record<string, string>> = {
  held: "held",
  broken: "BROKEN",
  undecided: "could not decide",
  "not-reached": "not reached",
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The classes a results.json holds for a check, each kept only when it has the fields the table shows. */
function classesOf(check: CheckResult): ClassExploration[] {
  const classes = (check.exploration as unknown as { classes?: unknown } | undefined)?.classes;
  if (!Array.isArray(classes)) return [];
  return classes.filter(
    (cls): cls is ClassExploration =>
      isObject(cls) &&
      typeof cls.key === "string" &&
      typeof cls.field === "string" &&
      typeof cls.name === "string" &&
      typeof cls.tried === "number" &&
      typeof cls.outcome === "string" &&
      isObject(cls.answers),
  );
}

/** "202 ×3, 400 ×1": the statuses a class's inputs got, most frequent first. */
function answers(cls: ClassExploration): string {
  const entries = Object.entries(cls.answers).filter(([, count]) => typeof count === "number");
  if (entries.length === 0) return cls.notJudged > 0 ? `429 ×${cls.notJudged}` : "—";
  return entries
    .sort((a, b) => Number(b[1]) - Number(a[1]) || a[0].localeCompare(b[0]))
    .map(([status, count]) => `${status} ×${count}`)
    .join(", ");
}

/**
 * What a property-based check explored, class by class of each field: the inputs it sent (boundaries and drawn
 * ones), what the target answered, how each class came out, and the classes the run did not reach: a PASS says what
 * it covered. Empty for a check without an exploration.
 */
export function renderExploration(check: CheckResult): string {
  const classes = classesOf(check);
  if (classes.length === 0) return "";
  const tried = classes.reduce((sum, cls) => sum + cls.tried, 0);
  const notReached = classes.filter((cls) => cls.outcome === "not-reached");
  const rows = classes
    .map((cls) => {
      const note =
        typeof cls.note === "string" ? `<br><span class="muted">${escapeHtml(cls.note)}</span>` : "";
      const via = typeof cls.via === "string" ? ` <span class="muted">(${escapeHtml(cls.via)})</span>` : "";
      return (
        `<tr class="class-${escapeHtml(cls.outcome)}"><td><code>${escapeHtml(cls.field)}</code>${via}</td>` +
        `<td><code>${escapeHtml(cls.name)}</code><br><span class="muted">${escapeHtml(String(cls.description ?? ""))}</span></td>` +
        `<td>${escapeHtml(EXPECTS[String(cls.expect)] ?? String(cls.expect))}</td>` +
        `<td>${escapeHtml(`${cls.tried}${typeof cls.covered === "number" ? ` (${cls.covered} boundaries)` : ""}`)}</td>` +
        `<td>${escapeHtml(answers(cls))}</td>` +
        `<td>${escapeHtml(OUTCOMES[cls.outcome] ?? cls.outcome)}${note}</td></tr>`
      );
    })
    .join("");
  const missed =
    notReached.length === 0
      ? `<p class="muted">Every class was reached.</p>`
      : `<p><strong>Not reached:</strong> ${notReached.map((cls) => `<code>${escapeHtml(cls.key)}</code>`).join(", ")}</p>`;
  return [
    `<div class="exploration"><h4>Inputs explored: ${escapeHtml(`${tried} over ${classes.length - notReached.length} of ${classes.length} classes`)}</h4>`,
    missed,
    `<table class="data"><thead><tr><th>Field</th><th>Class</th><th>Expected</th><th>Inputs</th><th>Answers</th><th>Outcome</th></tr></thead>`,
    `<tbody>${rows}</tbody></table></div>`,
  ].join("");
}
