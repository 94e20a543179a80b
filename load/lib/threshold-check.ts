/** One threshold expression as k6 reads it: `AGG OP NUMBER`, e.g. `p(95)<500` or `count==0`. */
export interface ParsedExpression {
  readonly stat: string;
  readonly operator: string;
  readonly limit: number;
}

const PARSE =
  /^\s*(count|rate|value|avg|min|max|med|p\(\d+(?:\.\d+)?\))\s*(<=|>=|===|==|!=|<|>)\s*(-?\d+(?:\.\d+)?)\s*$/;

/** Parses an expression of the form thresholds.ts accepts; undefined when it is not one. */
export function parseExpression(expression: string): ParsedExpression | undefined {
  const match = PARSE.exec(expression);
  if (match === null) return undefined;
  return { stat: match[1] as string, operator: match[2] as string, limit: Number(match[3]) };
}

/**
 * Evaluates an expression on a metric's aggregated values the way k6 does (the aggregate, the operator, the
 * limit); undefined when the metric has no such aggregate, which k6 would have refused before the run.
 */
export function checkThreshold(
  expression: string,
  values: Readonly<Record<string, number>>,
): boolean | undefined {
  const parsed = parseExpression(expression);
  if (parsed === undefined) return undefined;
  const value = values[parsed.stat];
  if (value === undefined) return undefined;
  switch (parsed.operator) {
    case "<":
      return value < parsed.limit;
    case "<=":
      return value <= parsed.limit;
    case ">":
      return value > parsed.limit;
    case ">=":
      return value >= parsed.limit;
    case "==":
    case "===":
      return value === parsed.limit;
    default:
      return value !== parsed.limit;
  }
}
