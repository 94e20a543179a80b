/** Longest run the CLI accepts (`--duration`): a week-long soak is already an unusual request. */
export const MAX_RUN_SECONDS = 7 * 24 * 3600;

const UNIT_SECONDS: Readonly<Record<string, number>> = { ms: 0.001, s: 1, m: 60, h: 3600 };
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;

/** Parses a k6-style duration (`90s`, `5m`, `1h30m`, `250ms`) or plain seconds (`45`); undefined when malformed. */
export function parseDurationSeconds(raw: string): number | undefined {
  const text = raw.trim();
  if (/^\d+(?:\.\d+)?$/.test(text)) return Number(text);
  if (text === "") return undefined;
  PART.lastIndex = 0;
  let total = 0;
  let consumed = 0;
  for (let match = PART.exec(text); match !== null; match = PART.exec(text)) {
    total += Number(match[1]) * (UNIT_SECONDS[match[2] as string] as number);
    consumed = PART.lastIndex;
  }
  return consumed === text.length ? total : undefined;
}

/** Formats seconds as a k6 duration string, rounded to milliseconds. */
export function k6Duration(seconds: number): string {
  return `${Math.max(0, Math.round(seconds * 1000))}ms`;
}
