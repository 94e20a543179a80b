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

/**
 * ASCII punctuation that means something inside a CommonMark/GFM line: links and images (`[`, `]`), HTML and
 * autolinks (`<`), entities (`&`), emphasis, strikethrough, code and math (`*`, `_`, `~`, `` ` ``, `$`), table
 * cells (`|`), a heading's closing `#`, and the backslash itself. Escaped, each shows as typed.
 */
const INLINE_SYNTAX = /[\\`*_~[\]<>&|$#]/g;
/**
 * What GFM reads as an autolink literal (`https://…`, `ftp://…`, `www.…`, an e-mail address) in the text that
 * escapes leave: no escape stops one, a code span does.
 */
const AUTOLINK_LITERAL = /:\/\/|www\.|@/i;

/**
 * `text` on one line, escaped for Markdown, or undefined when it holds an autolink literal, which only a code span
 * stops. Its first character is escaped too when it would open a block where the text starts one (a list item, a
 * callout's line): a list (`-`, `+`, `1.`), a setext underline (`=`), a table's delimiter row (`:-`).
 */
function escapedLine(line: string): string | undefined {
  if (AUTOLINK_LITERAL.test(line)) return undefined;
  const escaped = line.replace(INLINE_SYNTAX, "\\$&");
  if (/^\d{1,9}[.)](?:\s|$)/.test(escaped)) return escaped.replace(/[.)]/, "\\$&");
  return escaped.replace(/^[+\-=:]/, "\\$&");
}

/**
 * Text a target sent, for a list item, a heading, a paragraph or a callout: one line, trimmed, shown as typed. Its
 * Markdown and HTML are escaped; text holding a URL, `www.` or an `@` is written as a code span, so no link, image
 * or HTML of a target's ever goes live in a summary.
 */
export function inlineText(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return escapedLine(line) ?? codeSpan(line);
}

/** inlineText for a table cell, where GitHub reads a pipe as the cell's end even inside a code span. */
export function inlineCell(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return escapedLine(line) ?? codeCell(line);
}

/**
 * inlineText for text that starts a Markdown line (a callout's, a list item's), which inlineText already keeps
 * from opening a block (heading, list, quote, fence, break, table, link definition): a code span ends on its line.
 */
export function paragraphText(text: string): string {
  return inlineText(text);
}

/** Plain text inside raw HTML (a `<summary>`), where Markdown is not read: its HTML escaped, on one line. */
export function htmlText(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .trim()
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;");
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

/**
 * A folded block whose body is Markdown; the blank lines let GitHub render that body. The summary is raw HTML,
 * where no escape of Markdown's holds: it takes the harness's own words only, as HTML (htmlText).
 */
export function detailsBlock(summary: string, body: string): string {
  return `<details><summary>${summary}</summary>\n\n${body}\n\n</details>`;
}
