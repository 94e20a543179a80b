import { AREA_TITLES, CHECK_AREAS } from "../checks/check.ts";
import type { CheckResult } from "../checks/check-result.ts";
import type { ContractRun } from "./run-summary.ts";

/** Control characters XML 1.0 cannot carry, even escaped: removed, not escaped. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching these characters is the point.
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;

function xml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replace(XML_FORBIDDEN, "");
}

function evidenceText(check: CheckResult): string {
  return check.evidence
    .map(
      (item) =>
        `# ${item.label}\n${item.curl}\n=> ${item.response ? item.response.status : `error: ${item.error}`}`,
    )
    .join("\n\n");
}

function testCase(check: CheckResult): string {
  const name = `${check.id}: ${check.title}`;
  const seconds = (check.durationMs / 1000).toFixed(3);
  const detail = `[${check.level}] ${check.rule}: ${check.message}`;
  const body = (() => {
    switch (check.status) {
      case "FAIL":
        return `<failure message="${xml(check.message)}" type="${check.level}">${xml(detail)}</failure>`;
      case "ERROR":
        return `<error message="${xml(check.message)}" type="could-not-decide">${xml(detail)}</error>`;
      case "SKIP":
        return `<skipped message="${xml(check.message)}"/>`;
      default:
        return "";
    }
  })();
  // JUnit has no warning state: a WARN passes, and says so where CI shows test output.
  const out = `${check.status} ${detail}\n\n${evidenceText(check)}`;
  return `    <testcase name="${xml(name)}" classname="event-api-harness.${check.area}" time="${seconds}">${body}<system-out>${xml(out)}</system-out></testcase>`;
}

/** junit.xml: one testsuite per area; FAIL is a failure, ERROR an error, SKIP skipped, WARN a pass with output. */
export function renderJunitXml(run: ContractRun): string {
  const suites = CHECK_AREAS.map((area) => {
    const checks = run.checks.filter((check) => check.area === area);
    if (checks.length === 0) return "";
    const count = (status: string) => checks.filter((check) => check.status === status).length;
    const time = (checks.reduce((sum, check) => sum + check.durationMs, 0) / 1000).toFixed(3);
    return [
      `  <testsuite name="${xml(AREA_TITLES[area])}" tests="${checks.length}" failures="${count("FAIL")}" errors="${count("ERROR")}" skipped="${count("SKIP")}" time="${time}" timestamp="${run.startedAt}">`,
      ...checks.map(testCase),
      "  </testsuite>",
    ].join("\n");
  }).filter(Boolean);
  const total = run.checks.length;
  const failures = run.checks.filter((check) => check.status === "FAIL").length;
  const errors = run.checks.filter((check) => check.status === "ERROR").length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="event-api-harness ${xml(run.suite)}" tests="${total}" failures="${failures}" errors="${errors}" time="${(run.durationMs / 1000).toFixed(3)}">`,
    ...suites,
    "</testsuites>",
    "",
  ].join("\n");
}
