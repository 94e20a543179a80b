// The Markdown every summary.md is written with (contract, load and run), so each table, callout and escape is
// decided once. The k6 scenarios use it too: no Node or k6 APIs.

/** Escapes the pipes that would end a table cell early. */
export function escapePipes(text: string): string {
  return text.replaceAll("|", "\\|");
}

/** Text for a table cell: one line (a line break would end the row), pipes escaped. */
export function tableCell(text: string): string {
  return escapePipes(text.replace(/\s+/g, " "));
}

/** Text a target sent, for a table cell or a list item: one line, no pipes, and no HTML, trimmed. */
export function inlineText(text: string): string {
  return tableCell(text).replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").trim();
}

/**
 * inlineText for text that starts a Markdown line (a callout's, a list item's): a leading character that
 * would open a block (heading, list, quote, fence, break, link definition) is escaped, so it stays text.
 */
export function paragraphText(text: string): string {
  const line = inlineText(text);
  // Digits and a dot or parenthesis start an ordered list; each of the other characters another block.
  if (/^\d{1,9}[.)](?:\s|$)/.test(line)) return line.replace(/[.)]/, "\\$&");
  return line.replace(/^[#>+\-*=_`~[]/, "\\$&");
}

/**
 * A code span, for ids, URLs and metric names, on one line: its fence is longer than any run of backticks
 * in `text`, and a space each side (CommonMark strips one) keeps a backtick at either end, or end spaces.
 */
export function codeSpan(text: string): string {
  const line = text.replace(/\r\n|\r|\n/g, " ");
  const longest = Math.max(0, ...Array.from(line.matchAll(/`+/g), (match) => match[0].length));
  const fence = "`".repeat(longest + 1);
  const stripped = line.startsWith(" ") && line.endsWith(" ") && /[^ ]/.test(line);
  const pad = line.startsWith("`") || line.endsWith("`") || stripped ? " " : "";
  return `${fence}${pad}${line}${pad}${fence}`;
}

/** A code span in a table cell, where GitHub reads a pipe as the cell's end even inside the span. */
export function codeCell(text: string): string {
  return escapePipes(codeSpan(text));
}

/** A fenced code block whose fence is longer than any run of backticks in `text`, so the text cannot end it early. */
export function codeBlock(text: string, language = ""): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}

/** A table row; each cell is written as given, so escape what needs it first (tableCell, inlineText). */
export function tableRow(cells: readonly (string | number)[]): string {
  return `| ${cells.join(" | ")} |`;
}

/** A table's header and delimiter rows; an empty title is the blank header of an icon column. */
export function tableHead(titles: readonly string[], align: readonly ("left" | "right")[] = []): string[] {
  return [
    `|${titles.map((title) => (title === "" ? " " : ` ${title} `)).join("|")}|`,
    `|${titles.map((_, i) => (align[i] === "right" ? "---:" : "---")).join("|")}|`,
  ];
}

/** A GitHub warning callout: rendered as a yellow box in a job summary, as a quote elsewhere; `text` is plain text. */
export function warningCallout(text: string): string {
  return `> [!WARNING]\n> ${paragraphText(text)}`;
}

/** A folded block whose body is Markdown; the blank lines let GitHub render that body. */
export function detailsBlock(summary: string, body: string): string {
  return `<details><summary>${summary}</summary>\n\n${body}\n\n</details>`;
}
