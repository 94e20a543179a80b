// What a target sent is shown, never obeyed: the one function every output's target text passes through. Writers
// still escape for their own format (HTML entities, Markdown, XML); this takes away what no format makes safe.

const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * C0 and C1 controls and DEL (escape sequences, BEL, NUL, CR/LF), the Unicode line and paragraph separators,
 * bidirectional overrides (which reorder what a reader sees), non-characters U+FFFE/U+FFFF and lone surrogates.
 */
const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching these characters is the point.
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff\ufffe\uffff]|\p{Cs}/gu;

function visible(char: string): string {
  const code = char.charCodeAt(0);
  return (
    NAMED[char] ??
    (code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`)
  );
}

/**
 * What a GitHub Actions runner obeys in a log line: `::name::` once the line's leading whitespace is trimmed, and the
 * legacy `##[name]` anywhere. Inert text is one line, so only its own start can be a line's start.
 */
const WORKFLOW_COMMAND = /^(\s*):(?=:)|##\[/gu;

/**
 * Text a target sent, made inert for a terminal, a CI log, Markdown, HTML or XML: each unsafe character becomes a
 * visible escape (`\x1b`, `\n`, `\ufffe`), so it stays on one line, and a workflow command loses its first
 * character the same way (`\x3a:error::`, `##\x5berror]`), so it starts no command. Idempotent.
 */
export function inertText(text: string): string {
  return text
    .replace(UNSAFE, visible)
    .replace(WORKFLOW_COMMAND, (_, space?: string) => (space === undefined ? "##\\x5b" : `${space}\\x3a`));
}
