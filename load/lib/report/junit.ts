import type { ReportInput } from "./markdown.ts";

function xml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/**
 * JUnit XML for CI: one test case per threshold, and one for the sliding-expiry verdict (skipped when it could not
 * be decided). Only the thresholds decide k6's exit code; the verdict case mirrors them for readers.
 */
export function renderJunit({ context, facts, thresholds, verdict }: ReportInput): string {
  const suite = `load.${context.scenario}`;
  const cases = thresholds.map((t) => {
    const open = `    <testcase classname="${xml(`${suite}.thresholds`)}" name="${xml(`${t.metric}: ${t.expression}`)}" time="0"`;
    if (t.ok) return `${open}/>`;
    const message = `threshold crossed${t.observed ? `: ${t.observed}` : ""}`;
    return `${open}>\n      <failure message="${xml(message)}" type="threshold"/>\n    </testcase>`;
  });
  const verdictOpen = `    <testcase classname="${xml(suite)}" name="sliding expiry" time="0"`;
  const reasons = xml(verdict.reasons.join(" "));
  if (verdict.level === "broken") {
    cases.push(
      `${verdictOpen}>\n      <failure message="sliding expiry broken" type="contract">${reasons}</failure>\n    </testcase>`,
    );
  } else if (verdict.level === "held") {
    cases.push(`${verdictOpen}/>`);
  } else {
    cases.push(`${verdictOpen}>\n      <skipped message="${reasons}"/>\n    </testcase>`);
  }
  const failures = thresholds.filter((t) => !t.ok).length + (verdict.level === "broken" ? 1 : 0);
  const skipped = verdict.level === "inconclusive" || verdict.level === "not-exercised" ? 1 : 0;
  const time = facts.runSeconds.toFixed(3);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="event-harness load" tests="${cases.length}" failures="${failures}" time="${time}">`,
    `  <testsuite name="${xml(suite)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${time}">`,
    ...cases,
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
