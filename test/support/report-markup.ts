import { XMLParser } from "fast-xml-parser";
import { xmlProblems } from "./xml-document.ts";

// An independent reader of the reports' HTML fragments and inline SVG, which the harness writes as well-formed
// markup: fast-xml-parser parses them, so a test asks for elements and attributes instead of matching text.

/** One element of a fragment: its tag, attributes (entities resolved) and all the text inside it. */
export interface MarkupElement {
  readonly tag: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly text: string;
}

type Node = Record<string, unknown>;

function textIn(nodes: readonly Node[]): string {
  return nodes
    .map((node) => {
      if ("#text" in node) return String(node["#text"]);
      const tag = Object.keys(node).find((key) => key !== ":@");
      return tag === undefined ? "" : textIn(node[tag] as Node[]);
    })
    .join("");
}

function* walk(nodes: readonly Node[]): Generator<MarkupElement> {
  for (const node of nodes) {
    const tag = Object.keys(node).find((key) => key !== ":@" && key !== "#text");
    if (tag === undefined) continue;
    const children = node[tag] as Node[];
    const attributes = (node[":@"] ?? {}) as Record<string, string>;
    yield { tag, attributes, text: textIn(children) };
    yield* walk(children);
  }
}

/** Every element of an HTML or SVG fragment in document order; throws when the fragment is not well-formed. */
export function markupElements(fragment: string): MarkupElement[] {
  const wrapped = `<fragment>${fragment}</fragment>`;
  const problems = xmlProblems(wrapped);
  if (problems.length > 0) throw new Error(`not well-formed: ${problems.join("; ")}`);
  const tree = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: "",
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    htmlEntities: true,
  }).parse(wrapped) as Node[];
  return [...walk(tree)].filter((element) => element.tag !== "fragment");
}

/** The elements with this tag whose class list holds `className` (any class when omitted). */
export function elementsOf(fragment: string, tag: string, className?: string): MarkupElement[] {
  return markupElements(fragment).filter(
    (element) =>
      element.tag === tag &&
      (className === undefined || (element.attributes.class ?? "").split(/\s+/).includes(className)),
  );
}
