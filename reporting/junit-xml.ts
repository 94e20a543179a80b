/** How one test case ended; JUnit has no warning state, so a warning is a pass that says so in its output. */
export type JunitOutcome =
  | { readonly kind: "passed" }
  | {
      readonly kind: "failure" | "error";
      readonly message: string;
      readonly type: string;
      readonly detail?: string;
    }
  | { readonly kind: "skipped"; readonly message: string };

export interface JunitCase {
  readonly name: string;
  readonly classname: string;
  readonly seconds: number;
  readonly outcome: JunitOutcome;
  /** Shown by CI beside the case (`<system-out>`). */
  readonly output?: string;
}

export interface JunitSuite {
  readonly name: string;
  readonly seconds: number;
  /** ISO-8601 start time of the suite, when known. */
  readonly timestamp?: string;
  readonly cases: readonly JunitCase[];
}

export interface JunitReport {
  readonly name: string;
  readonly seconds: number;
  readonly suites: readonly JunitSuite[];
}

/**
 * Everything outside XML 1.0's Char production (controls, U+FFFE, U+FFFF, lone surrogates): a document holding one
 * is not well-formed, even escaped, so it is removed.
 */
const XML_FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Escapes text for an XML attribute value in double quotes or for element content. */
export function xmlText(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(XML_FORBIDDEN, "");
}

function attributes(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${xmlText(String(value))}"`)
    .join("");
}

function counts(cases: readonly JunitCase[]) {
  const count = (kind: JunitOutcome["kind"]) => cases.filter((c) => c.outcome.kind === kind).length;
  return {
    tests: cases.length,
    failures: count("failure"),
    errors: count("error"),
    skipped: count("skipped"),
  };
}

function outcomeElement(outcome: JunitOutcome): string {
  switch (outcome.kind) {
    case "passed":
      return "";
    case "skipped":
      return `<skipped${attributes({ message: outcome.message })}/>`;
    default: {
      const open = `<${outcome.kind}${attributes({ message: outcome.message, type: outcome.type })}`;
      return outcome.detail === undefined
        ? `${open}/>`
        : `${open}>${xmlText(outcome.detail)}</${outcome.kind}>`;
    }
  }
}

function caseElement(testCase: JunitCase): string {
  const open = `    <testcase${attributes({ name: testCase.name, classname: testCase.classname, time: testCase.seconds.toFixed(3) })}`;
  const body = `${outcomeElement(testCase.outcome)}${
    testCase.output === undefined ? "" : `<system-out>${xmlText(testCase.output)}</system-out>`
  }`;
  return body === "" ? `${open}/>` : `${open}>${body}</testcase>`;
}

function suiteElement(suite: JunitSuite): string {
  return [
    `  <testsuite${attributes({ name: suite.name, ...counts(suite.cases), time: suite.seconds.toFixed(3), timestamp: suite.timestamp })}>`,
    ...suite.cases.map(caseElement),
    "  </testsuite>",
  ].join("\n");
}

/** The one JUnit XML writer of the harness: counts are derived from the cases, so they cannot disagree. */
export function renderJunitXml(report: JunitReport): string {
  const all = report.suites.flatMap((suite) => suite.cases);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: report.name, ...counts(all), time: report.seconds.toFixed(3) })}>`,
    ...report.suites.map(suiteElement),
    "</testsuites>",
    "",
  ].join("\n");
}
