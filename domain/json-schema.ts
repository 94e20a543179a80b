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

/** zod's annotation for startsWith(); the `pattern` beside it carries the rule, and tools warn on unknown formats. */
const NON_STANDARD_FORMATS = new Set(["starts_with"]);

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
    override: ({ jsonSchema }) => {
      if (typeof jsonSchema.format === "string" && NON_STANDARD_FORMATS.has(jsonSchema.format))
        delete jsonSchema.format;
    },
  }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}
