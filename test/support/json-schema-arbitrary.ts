import fc from "fast-check";

/**
 * A fast-check arbitrary for the values a JSON Schema (2020-12, the subset the harness's export uses) allows,
 * built from the schema alone: an independent generator, as a tool such as Schemathesis reads the export. It
 * refuses any keyword it does not know, so a schema it cannot honour fails the test rather than being half-read.
 */
export function arbitraryOf(schema: unknown, path = "#"): fc.Arbitrary<unknown> {
  if (schema === true || (typeof schema === "object" && schema !== null && Object.keys(schema).length === 0))
    return fc.jsonValue({ maxDepth: 2 });
  if (typeof schema !== "object" || schema === null) throw new Error(`${path}: not a schema`);
  const node = schema as Record<string, unknown>;
  const known = new Set([
    "type",
    "properties",
    "required",
    "additionalProperties",
    "pattern",
    "minLength",
    "maxLength",
    "const",
    "description",
    "minimum",
    "maximum",
  ]);
  for (const key of Object.keys(node)) if (!known.has(key)) throw new Error(`${path}: keyword ${key}`);
  if ("const" in node) return fc.constant(node.const);
  switch (node.type) {
    case "string":
      return stringArbitrary(node);
    case "integer":
      return fc.integer({
        min: typeof node.minimum === "number" ? node.minimum : -1_000_000,
        max: typeof node.maximum === "number" ? node.maximum : 1_000_000,
      });
    case "object":
      return objectArbitrary(node, path);
    default:
      throw new Error(`${path}: type ${String(node.type)}`);
  }
}

function stringArbitrary(node: Record<string, unknown>): fc.Arbitrary<string> {
  const minLength = typeof node.minLength === "number" ? node.minLength : 0;
  const maxLength = typeof node.maxLength === "number" ? node.maxLength : undefined;
  const fits = (value: string) =>
    [...value].length >= minLength && (maxLength === undefined || [...value].length <= maxLength);
  if (typeof node.pattern === "string") {
    // JSON Schema patterns are unanchored ECMA-262 regular expressions.
    return fc.stringMatching(new RegExp(node.pattern)).filter(fits);
  }
  return fc.string({
    unit: "grapheme",
    minLength,
    ...(maxLength === undefined ? {} : { maxLength }),
  });
}

function objectArbitrary(node: Record<string, unknown>, path: string): fc.Arbitrary<unknown> {
  const properties = (node.properties ?? {}) as Record<string, unknown>;
  const required = new Set((node.required ?? []) as string[]);
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, schema] of Object.entries(properties))
    shape[name] = arbitraryOf(schema, `${path}/${name}`);
  const declared = fc.record(shape, { requiredKeys: [...required] });
  if (node.additionalProperties === false || node.additionalProperties === undefined) return declared;
  if (node.additionalProperties !== true)
    throw new Error(`${path}: additionalProperties must be true or false`);
  const extraName = fc.string({ minLength: 1, maxLength: 12 }).filter((name) => !(name in properties));
  const extras = fc.dictionary(extraName, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
  return fc.tuple(declared, extras).map(([own, more]) => ({ ...more, ...(own as object) }));
}
