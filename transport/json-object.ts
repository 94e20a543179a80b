/** The JSON object a response body holds (`{…}`), else undefined: not JSON, or an array, a string, null, a number. */
export function jsonObjectOf(text: string): Readonly<Record<string, unknown>> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
