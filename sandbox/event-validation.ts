import { z } from "zod";
import type { EventStrictness } from "../domain/index.ts";
import { eventSchemas } from "../domain/index.ts";

/** One problem of an event, in the 400 body's `Errors` list. */
export interface EventProblem {
  /** Dotted path such as `customer.email` or `products[0].name`; "" for the body itself. */
  readonly path: string;
  readonly message: string;
}

export type EventCheck =
  | { readonly ok: true; readonly reference: string | undefined }
  | { readonly ok: false; readonly problems: readonly EventProblem[] };

function formatPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else text += text === "" ? String(segment) : `.${String(segment)}`;
  }
  return text;
}

/** Zod's default for a missing field reads "expected string, received undefined"; say what is meant. */
const errorMap: z.core.$ZodErrorMap = (issue) =>
  issue.code === "invalid_type" && issue.input === undefined
    ? `Required, expected ${issue.expected}`
    : undefined;

/** The transaction reference of any JSON value, when it has one; duplicates are found by it. */
export function referenceOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const transaction = (value as { transaction?: unknown }).transaction;
  if (typeof transaction !== "object" || transaction === null) return undefined;
  const reference = (transaction as { reference?: unknown }).reference;
  return typeof reference === "string" ? reference : undefined;
}

/**
 * Validates parsed JSON against the contract schema of the given strictness and lists every problem. A valid event
 * (the hot path) only runs zod's compiled validator, which builds no output (0.2 µs instead of 3.5 µs for a
 * safeParse with an error map); an invalid one is parsed again to list its problems.
 */
export function createEventValidator(strictness: EventStrictness): (value: unknown) => EventCheck {
  const schema = eventSchemas[strictness];
  const compiled = z.compile(schema);
  return (value) => {
    if (compiled.validate(value)) return { ok: true, reference: referenceOf(value) };
    const result = schema.safeParse(value, { error: errorMap });
    if (result.success) return { ok: true, reference: referenceOf(value) };
    return {
      ok: false,
      problems: result.error.issues.map((issue) => ({
        path: formatPath(issue.path),
        message: issue.message,
      })),
    };
  };
}

/** Production's 400 message names the first problem; `Errors` then lists them all. */
export function invalidEventBody(problems: readonly EventProblem[]): string {
  const first = problems[0];
  const summary =
    first === undefined ? "invalid event" : `${first.path === "" ? "body" : first.path}: ${first.message}`;
  return JSON.stringify({ Message: `Invalid request: ${summary}`, Errors: problems });
}
