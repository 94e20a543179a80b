import { z } from "zod";
import { eventSchemas } from "./event.ts";
import { tokenRequestSchema } from "./token-request.ts";
import { tokenResponseSchema } from "./token-response.ts";

/** Every contract schema by a stable name, for tools that speak JSON Schema rather than zod. */
export const NAMED_SCHEMAS = {
  "token-request": tokenRequestSchema,
  "token-response": tokenResponseSchema,
  event: eventSchemas.complete,
  "event-production": eventSchemas.production,
  "event-lenient": eventSchemas.lenient,
} as const;

export type SchemaName = keyof typeof NAMED_SCHEMAS;
export const SCHEMA_NAMES = Object.keys(NAMED_SCHEMAS) as SchemaName[];

/** JSON Schema (draft 2020-12) generated from the same zod schema the harness checks with. */
export function toJsonSchema(name: SchemaName): Record<string, unknown> {
  return z.toJSONSchema(NAMED_SCHEMAS[name]) as Record<string, unknown>;
}
