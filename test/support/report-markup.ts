import { XMLParser, XMLValidator } from "fast-xml-parser";

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
  // HTML's void elements have no end tag: closed here so an XML reader takes them as they are meant.
  const closed = fragment.replace(/<(br|hr|img|input|meta|link)\b([^>]*?)\/?>/gi, "<$1$2/>");
  const wrapped = `<fragment>${closed}</fragment>`;
  // HTML's boolean attributes (`hidden`) are allowed; anything else an XML reader refuses is a malformed fragment.
  const verdict = XMLValidator.validate(wrapped, { allowBooleanAttributes: true });
  if (verdict !== true)
    throw new Error(`not well-formed: ${verdict.err.msg} at ${verdict.err.line}:${verdict.err.col}`);
  const tree = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: "",
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    htmlEntities: true,
    allowBooleanAttributes: true,
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
