import { xmlProblems, xmlTree } from "./xml-document.ts";

type XmlNode = Record<string, unknown>;

/** A JUnit test case as an independent XML reader finds it. */
export interface JunitCase {
  readonly suite: string;
  readonly name: string;
  readonly classname: string;
  /** The attributes of its <failure>, <error> or <skipped>, when it has one; `text` is the element's text. */
  readonly failure?: Readonly<Record<string, string>>;
  readonly error?: Readonly<Record<string, string>>;
  readonly skipped?: Readonly<Record<string, string>>;
}

function attributes(node: XmlNode): Record<string, string> {
  return Object.fromEntries(
    Object.entries((node[":@"] ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
  );
}

function children(node: XmlNode, tag: string): XmlNode[] {
  return ((node[tag] ?? []) as XmlNode[]).filter((child) => typeof child === "object");
}

function text(node: XmlNode, tag: string): string {
  return children(node, tag)
    .map((child) => String(child["#text"] ?? ""))
    .join("");
}

/** Every test case of a JUnit XML document, with its suite; throws when the document is not well-formed XML. */
export function junitCases(xml: string): JunitCase[] {
  const problems = xmlProblems(xml);
  if (problems.length > 0) throw new Error(`not well-formed: ${problems.join("; ")}`);
  const cases: JunitCase[] = [];
  for (const root of xmlTree(xml).filter((node) => "testsuites" in node)) {
    for (const suite of children(root, "testsuites").filter((node) => "testsuite" in node)) {
      const suiteName = attributes(suite).name ?? "";
      for (const testcase of children(suite, "testsuite").filter((node) => "testcase" in node)) {
        const own = attributes(testcase);
        const outcome = (tag: string) => {
          const element = children(testcase, "testcase").find((node) => tag in node);
          return element === undefined ? undefined : { ...attributes(element), text: text(element, tag) };
        };
        const failure = outcome("failure");
        const error = outcome("error");
        const skipped = outcome("skipped");
        cases.push({
          suite: suiteName,
          name: own.name ?? "",
          classname: own.classname ?? "",
          ...(failure === undefined ? {} : { failure }),
          ...(error === undefined ? {} : { error }),
          ...(skipped === undefined ? {} : { skipped }),
        });
      }
    }
  }
  return cases;
}
