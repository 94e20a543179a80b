// How a CommonMark/GFM reader splits what the reports write, so tests check what readers see, not our strings.

/**
 * The text a reader gets from `markdown` when it starts with a code span, and what follows the span: the span ends
 * at the first backtick run as long as its opening one, and one space is stripped from each side when both have one.
 */
export function readCodeSpan(markdown: string): { readonly code: string; readonly rest: string } {
  const fence = /^`+/.exec(markdown)?.[0];
  if (fence === undefined) throw new Error(`no code span at the start of ${JSON.stringify(markdown)}`);
  const body = markdown.slice(fence.length);
  const close = new RegExp(`(?<!\`)${fence}(?!\`)`).exec(body);
  if (close === null) throw new Error(`code span never closed in ${JSON.stringify(markdown)}`);
  let code = body.slice(0, close.index).replace(/\r\n|\r|\n/g, " ");
  if (code.startsWith(" ") && code.endsWith(" ") && /[^ ]/.test(code)) code = code.slice(1, -1);
  return { code, rest: body.slice(close.index + fence.length) };
}

/** The cells of a GFM table row: split on the pipes that are not escaped, `\|` read back as `|`. */
export function tableCells(row: string): string[] {
  const inner = row
    .trim()
    .replace(/^\|/, "")
    .replace(/(?<!\\)\|$/, "");
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replaceAll("\\|", "|"));
}
