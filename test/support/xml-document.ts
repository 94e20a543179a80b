import { XMLParser, XMLValidator } from "fast-xml-parser";

// An independent reader of what the harness writes as XML: fast-xml-parser validates and parses the markup (tags,
// nesting, attributes, a bare &); the rules of XML 1.0 its validator leaves out are checked on what it parsed.

/** XML 1.0 §2.2 Char: any other character makes a document not well-formed, escaped as a reference or not. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

type XmlNode = Record<string, unknown>;

/** The document as fast-xml-parser reads it, in order: `{ tag: children, ":@": attributes }` or `{ "#text": … }`. */
function parse(xml: string, raw: boolean): XmlNode[] {
  return new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: "",
    parseTagValue: false,
    trimValues: false,
    // Raw: references stay as written, so the checks below see what a reader must resolve.
    processEntities: !raw,
  }).parse(xml) as XmlNode[];
}

/** Every text and attribute value of the tree, as written (references unresolved). */
function* values(nodes: readonly XmlNode[]): Generator<readonly [where: string, value: string]> {
  for (const node of nodes) {
    for (const [key, value] of Object.entries(node)) {
      if (key === "#text") yield ["text", String(value)];
      else if (key === ":@")
        for (const [name, attribute] of Object.entries(value as Record<string, unknown>))
          yield [`attribute ${name}`, String(attribute)];
      else if (Array.isArray(value)) yield* values(value as XmlNode[]);
    }
  }
}

/** The rules of XML 1.0 that fast-xml-parser's validator does not enforce, each with its section. */
function lexicalProblems(xml: string, tree: readonly XmlNode[]): string[] {
  const problems: string[] = [];
  const bad = NOT_XML_CHAR.exec(xml);
  if (bad !== null)
    problems.push(
      `§2.2: U+${bad[0].codePointAt(0)?.toString(16).toUpperCase()} is not a Char (at ${bad.index})`,
    );
  const roots = tree.filter(
    (node) => !Object.keys(node).some((key) => key.startsWith("?") || key === "#text"),
  );
  if (roots.length !== 1) problems.push(`§2.1: ${roots.length} root elements`);
  for (const [where, value] of values(tree)) {
    for (const [reference, body = ""] of value.matchAll(/&([^;]*);/g)) {
      if (body.startsWith("#")) {
        const code = body.startsWith("#x") ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
        const legal =
          Number.isInteger(code) && code <= 0x10ffff && !NOT_XML_CHAR.test(String.fromCodePoint(code));
        if (!legal) problems.push(`§4.1 Legal Character: ${reference} in the ${where} refers to no Char`);
      } else if (!["amp", "lt", "gt", "quot", "apos"].includes(body)) {
        problems.push(`§4.1 Entity Declared: ${reference} in the ${where}`);
      }
    }
    if (where !== "text" && value.includes("<")) problems.push(`§3.1 AttValue: a < in the ${where}`);
    if (where === "text" && value.includes("]]>")) problems.push("§2.4 CharData: ]]> in a text");
  }
  return problems;
}

/** The document's elements and texts in order, as fast-xml-parser reads them (attributes under ":@"). */
export function xmlTree(xml: string): XmlNode[] {
  return parse(xml, false);
}

/**
 * What an XML 1.0 reader would refuse in `xml`, empty when the document is well-formed: the markup as
 * fast-xml-parser validates it, then, on what it parsed, one root element and the lexical rules above.
 */
export function xmlProblems(xml: string): string[] {
  const verdict = XMLValidator.validate(xml);
  if (verdict !== true) {
    const { code, msg, line, col } = verdict.err;
    return [`${code} at ${line}:${col}: ${msg}`];
  }
  return lexicalProblems(xml, parse(xml, true));
}
