import { z } from "zod";
import { eventSchemas } from "./event.ts";
import { tokenErrorSchema } from "./token-error.ts";
import { tokenRequestSchema } from "./token-request.ts";
import { tokenResponseSchema } from "./token-response.ts";

/** Every contract schema by a stable name, for tools that speak JSON Schema rather than zod. */
export const NAMED_SCHEMAS = {
  "token-request": tokenRequestSchema,
  "token-response": tokenResponseSchema,
  "token-error": tokenErrorSchema,
  event: eventSchemas.complete,
  "event-production": eventSchemas.production,
  "event-lenient": eventSchemas.lenient,
} as const;

export type SchemaName = keyof typeof NAMED_SCHEMAS;
export const SCHEMA_NAMES = Object.keys(NAMED_SCHEMAS) as SchemaName[];

/** Whether the schema describes what a client sends (`input`) or what a server answers (`output`). */
export type SchemaDirection = "input" | "output";

/**
 * `\d` outside a character class, and inside one, as ASCII digits: several regex engines (Python's among them) let
 * `\d` match any Unicode digit, so a generator reading the pattern would produce "٢٠٢٦" for a year.
 */
export function asciiDigits(pattern: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] as string;
    if (char === "\\") {
      const next = pattern[i + 1] ?? "";
      out += next === "d" ? (inClass ? "0-9" : "[0-9]") : `${char}${next}`;
      i += 1;
      continue;
    }
    if (char === "[" && !inClass) inClass = true;
    else if (char === "]" && inClass) inClass = false;
    out += char;
  }
  return out;
}

/**
 * What generators need from a schema node: one constraint per string (a `format` beside a stricter `pattern`
 * leaves a generator nothing it can produce, so the pattern, which carries the whole rule, stays alone), ASCII
 * digits, and "no constraint" on additional properties said as `true`.
 */
function forGenerators(node: Record<string, unknown>): void {
  if (typeof node.pattern === "string") {
    delete node.format;
    node.pattern = asciiDigits(node.pattern);
  }
  const extra = node.additionalProperties;
  if (typeof extra === "object" && extra !== null && Object.keys(extra).length === 0)
    node.additionalProperties = true;
}

/**
 * JSON Schema (draft 2020-12, OpenAPI 3.1's dialect) generated from the same zod schema the harness checks with,
 * without `$schema` so it can sit inside an OpenAPI document.
 */
export function toJsonSchema(
  name: SchemaName,
  direction: SchemaDirection = "output",
): Record<string, unknown> {
  const schema = z.toJSONSchema(NAMED_SCHEMAS[name], {
    io: direction,
    override: ({ jsonSchema }) => forGenerators(jsonSchema as Record<string, unknown>),
  }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}
