/** Marks a console line from the suite as progress for the CLI rather than stray output. */
export const PROGRESS_MARK = "\u0000event-harness-progress\u0000";

/** Splits a marked console line into the check id and its message, or undefined for any other line. */
export function parseProgress(line: string): { checkId: string; message: string } | undefined {
  if (!line.startsWith(PROGRESS_MARK)) return undefined;
  const [checkId = "", ...rest] = line.slice(PROGRESS_MARK.length).trimEnd().split("\t");
  return { checkId, message: rest.join("\t") };
}
