import type { MaybeTerminal } from "./progress-line.ts";

/** Help piped into a file or a pager is wrapped here: wide enough for its tables, narrow enough to read. */
export const PIPED_HELP_WIDTH = 100;
/** Below this, the option column leaves descriptions no room: a narrower terminal gets lines this long. */
const NARROWEST = 40;
/** A hanging indent past which a continuation would be a narrow column: such lines hang 4 spaces in instead. */
const NARROWEST_COLUMN = 30;

/** The width help is wrapped to: the terminal's, else $COLUMNS when set, else PIPED_HELP_WIDTH. */
export function helpWidth(stdout: MaybeTerminal, env: NodeJS.ProcessEnv): number {
  const fromEnv = Number(env.COLUMNS);
  const width =
    stdout.isTTY === true && stdout.columns !== undefined && stdout.columns > 0
      ? stdout.columns
      : Number.isInteger(fromEnv) && fromEnv > 0
        ? fromEnv
        : PIPED_HELP_WIDTH;
  return Math.max(NARROWEST, width);
}

/**
 * Greedy word wrap of `words` to `width` after `first`, continuation lines starting with `hang` spaces; a long word
 * stays whole. A `first` that is more than an indent (a flag, `Usage: event-harness load `) may end a line of its own.
 */
function fill(first: string, words: readonly string[], hang: number, width: number): string[] {
  const lines: string[] = [];
  let line = first;
  for (const word of words) {
    const separator = line.endsWith(" ") || line === "" ? "" : " ";
    if (line.trim() !== "" && line.length + separator.length + word.length > width) {
      lines.push(line.trimEnd());
      // A word too long for the column (a URL, a JSON example) starts further left rather than past the width.
      line = " ".repeat(Math.min(hang, Math.max(0, width - word.length))) + word;
    } else {
      line += separator + word;
    }
  }
  lines.push(line);
  return lines;
}

/**
 * One line of help wrapped to `width` with a hanging indent: under the second column of a table row (`  --flag X
 * description`, `  name  summary`: the text after the first run of two or more spaces), else under the line's own
 * indent; `hangAt` overrides both.
 */
export function wrapHelpLine(line: string, width: number, hangAt?: number): string[] {
  if (line.length <= width) return [line];
  const indent = /^ */.exec(line)?.[0].length ?? 0;
  const column = /^ *\S.*?\S? {2,}(?=\S)/.exec(line)?.[0];
  let hang = hangAt ?? (column === undefined ? indent : column.length);
  if (hang > width - NARROWEST_COLUMN) hang = indent + 4;
  // The part before the hang stays as written (a flag and its padding); the rest is filled as words.
  const head =
    column !== undefined && hangAt === undefined && hang === column.length ? column : " ".repeat(indent);
  const words = line.slice(head.length).split(/ +/).filter(Boolean);
  return fill(head, words, hang, width);
}

/**
 * The words of a command line, split at spaces outside quotes, `$(…)` and the brackets of a usage line (`[--only
 * IDS]`), so no break lands inside one.
 */
function commandWords(command: string): string[] {
  const words: string[] = [];
  let word = "";
  let quote: string | undefined;
  let depth = 0;
  for (let index = 0; index < command.length; index += 1) {
    const char = command[index] ?? "";
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') {
      quote = char;
    } else if (char === "(" || char === "[" || char === "<") {
      depth += 1;
    } else if ((char === ")" || char === "]" || char === ">") && depth > 0) {
      depth -= 1;
    } else if (char === " " && depth === 0) {
      if (word !== "") words.push(word);
      word = "";
      continue;
    }
    word += char;
  }
  if (word !== "") words.push(word);
  return words;
}

/** A usage line wrapped to `width`, its continuations under the command's first argument. */
export function wrapUsage(line: string, width: number, hang: number): string[] {
  if (line.length <= width) return [line];
  const words = commandWords(line.slice(hang));
  return fill(line.slice(0, hang), words, hang > width - NARROWEST_COLUMN ? 4 : hang, width);
}

/**
 * An example command wrapped to `width` as a shell still runs it: each break is a ` \` continuation with the next
 * line 4 spaces further in, never inside quotes or `$(…)`, and a flag kept with its value where the two fit.
 */
export function wrapShellExample(example: string, width: number): string[] {
  // An example written over several lines is one command: it is wrapped again as a whole.
  const line = example.replace(/\s*\\\n\s*/g, " ");
  if (line.length <= width) return [line];
  const indent = /^ */.exec(line)?.[0].length ?? 0;
  const room = width - indent - 4 - 2;
  const units: string[] = [];
  for (const word of commandWords(line.slice(indent))) {
    const last = units.at(-1);
    if (
      last !== undefined &&
      /^--?[\w-]+$/.test(last) &&
      !word.startsWith("-") &&
      last.length + 1 + word.length <= room
    ) {
      units[units.length - 1] = `${last} ${word}`;
    } else {
      units.push(word);
    }
  }
  const lines: string[] = [];
  let current = " ".repeat(indent);
  let empty = true;
  for (const unit of units) {
    // Room for " \" at the end of a line that is continued.
    if (!empty && current.length + 1 + unit.length + 2 > width) {
      lines.push(`${current} \\`);
      current = " ".repeat(indent + 4) + unit;
    } else {
      current += empty ? unit : ` ${unit}`;
    }
    empty = false;
  }
  lines.push(current);
  return lines;
}

/**
 * A command's description as paragraphs to wrap: a line written by hand continues the previous one unless that one
 * ended a sentence, a table row or a paragraph, or this one is indented (a table) or blank.
 */
export function descriptionLines(description: string): string[] {
  const lines: string[] = [];
  for (const line of description.split("\n")) {
    const previous = lines.at(-1);
    const continues =
      previous !== undefined &&
      previous.trim() !== "" &&
      !previous.startsWith(" ") &&
      line.trim() !== "" &&
      !line.startsWith(" ") &&
      !/[.!?]["')`]?$/.test(previous);
    if (continues) lines[lines.length - 1] = `${previous} ${line}`;
    else lines.push(line);
  }
  return lines;
}
