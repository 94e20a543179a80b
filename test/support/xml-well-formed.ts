/** XML 1.0's Char production (§2.2): anything else makes a document not well-formed, escaped or not. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const NAME = /^[A-Za-z_:][\w.:-]*$/;
const REFERENCE = /^&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/;

function isXmlCodePoint(code: number): boolean {
  return !NOT_XML_CHAR.test(String.fromCodePoint(code));
}

/** Character data or an attribute value: every & starts a known reference to a Char, no < (in attributes). */
function textProblems(text: string, where: string): string[] {
  const problems: string[] = [];
  for (let i = text.indexOf("&"); i !== -1; i = text.indexOf("&", i + 1)) {
    const ref = REFERENCE.exec(text.slice(i));
    if (ref === null) problems.push(`a bare & in ${where}`);
    else if (ref[0].startsWith("&#")) {
      const code = ref[0].startsWith("&#x")
        ? Number.parseInt(ref[0].slice(3), 16)
        : Number(ref[0].slice(2, -1));
      if (!isXmlCodePoint(code))
        problems.push(`a reference to a forbidden character (${ref[0]}) in ${where}`);
    }
  }
  return problems;
}

/**
 * The well-formedness rules a JUnit file can break (no parser ships with the project): only XML characters, one
 * root, balanced and properly nested elements, quoted attributes, no < or bare & in text. Returns what is wrong.
 */
export function xmlProblems(xml: string): string[] {
  const problems: string[] = [];
  const bad = NOT_XML_CHAR.exec(xml);
  if (bad !== null) {
    problems.push(
      `forbidden character U+${bad[0].codePointAt(0)?.toString(16).toUpperCase()} at ${bad.index}`,
    );
  }
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, "");
  const open: string[] = [];
  let roots = 0;
  let at = 0;
  const tag = /<(\/?)([^\s/>]+)((?:\s+[^\s=/>]+="[^"<]*")*)\s*(\/?)>/y;
  while (at < body.length) {
    const lt = body.indexOf("<", at);
    const text = body.slice(at, lt === -1 ? body.length : lt);
    problems.push(...textProblems(text, `text at ${at}`));
    if (text.trim() !== "" && open.length === 0) problems.push(`text outside the root at ${at}`);
    if (lt === -1) break;
    tag.lastIndex = lt;
    const match = tag.exec(body);
    if (match === null) {
      problems.push(`a malformed tag at ${lt}`);
      break;
    }
    const [whole, closing, name = "", attributes = "", selfClosing] = match;
    if (!NAME.test(name)) problems.push(`a bad element name ${name}`);
    for (const [, value = ""] of attributes.matchAll(/="([^"]*)"/g)) {
      problems.push(...textProblems(value, `an attribute of <${name}>`));
    }
    if (closing) {
      if (open.pop() !== name) problems.push(`</${name}> closes another element`);
    } else if (!selfClosing) {
      if (open.length === 0) roots += 1;
      open.push(name);
    } else if (open.length === 0) roots += 1;
    at = lt + whole.length;
  }
  if (open.length > 0) problems.push(`unclosed: ${open.join(", ")}`);
  if (roots !== 1) problems.push(`${roots} root elements`);
  return problems;
}
