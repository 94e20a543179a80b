import { Ajv2020 } from "ajv/dist/2020.js";
import { SCHEMA_NAMES, toJsonSchema } from "../../domain/index.ts";
import { asciiDigits } from "../../domain/json-schema.ts";
import { createEventGenerator } from "../../generators/index.ts";
import { describe, expect, it } from "../support/fixtures.ts";

/** Every node of a JSON Schema that has `key`, wherever it sits. */
function nodesWith(
  node: unknown,
  key: string,
  found: Record<string, unknown>[] = [],
): Record<string, unknown>[] {
  if (typeof node !== "object" || node === null) return found;
  if (!Array.isArray(node) && key in node) found.push(node as Record<string, unknown>);
  for (const child of Object.values(node)) nodesWith(child, key, found);
  return found;
}

describe("asciiDigits", () => {
  it("makes \\d a class of ASCII digits outside a class, and a range inside one", () => {
    expect(asciiDigits("^\\d{4}-\\d{2}$")).toBe("^[0-9]{4}-[0-9]{2}$");
    expect(asciiDigits("[\\d.]+")).toBe("[0-9.]+");
  });

  it("keeps every other escape as it is, an escaped backslash and an escaped ] included", () => {
    expect(asciiDigits("a\\.b\\D")).toBe("a\\.b\\D");
    expect(asciiDigits("\\\\d")).toBe("\\\\d");
    expect(asciiDigits("[\\]\\d]\\d")).toBe("[\\]0-9][0-9]");
  });

  it("keeps a pattern without \\d, and a trailing backslash, unchanged", () => {
    expect(asciiDigits("")).toBe("");
    expect(asciiDigits("^[A-Z]+$")).toBe("^[A-Z]+$");
    expect(asciiDigits("x\\")).toBe("x\\");
  });
});

describe("toJsonSchema", () => {
  it("gives every named schema as draft 2020-12 a validator compiles, without $schema", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    for (const name of SCHEMA_NAMES) {
      const schema = toJsonSchema(name);
      expect(schema.$schema, name).toBeUndefined();
      expect(() => ajv.compile(schema), name).not.toThrow();
    }
  });

  it("leaves generators one constraint per string, in ASCII digits", () => {
    for (const name of SCHEMA_NAMES) {
      const patterned = nodesWith(toJsonSchema(name), "pattern");
      for (const node of patterned) {
        expect(node.format, `${name}: ${String(node.pattern)}`).toBeUndefined();
        expect(String(node.pattern)).not.toMatch(/(^|[^\\])(\\\\)*\\d/);
      }
    }
    expect(nodesWith(toJsonSchema("event"), "pattern").length).toBeGreaterThan(0);
  });

  it("says an open object's other properties as true", () => {
    expect(toJsonSchema("token-response").additionalProperties).toBe(true);
  });

  it("accepts the spec's example token response and a generated event, and refuses what the rules refuse", () => {
    const ajv = new Ajv2020({ strict: false });
    const tokenResponse = ajv.compile(toJsonSchema("token-response"));
    const example = {
      access_token: "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln",
      expires_in: 300,
      refresh_expires_in: 0,
      token_type: "Bearer",
      "not-before-policy": 0,
      scope: "profile email",
    };
    expect(tokenResponse(example)).toBe(true);
    const { access_token: _dropped, ...withoutToken } = example;
    expect(tokenResponse(withoutToken)).toBe(false);
    expect(tokenResponse({ ...example, expires_in: "300" })).toBe(false);

    const event = ajv.compile(toJsonSchema("event"));
    const valid = createEventGenerator({ seed: 3, runId: "json-schema" }).next();
    expect(event(valid), JSON.stringify(event.errors)).toBe(true);
    const transaction = valid.transaction as Record<string, unknown>;
    expect(event({ ...valid, transaction: { ...transaction, date: "2026-02-30T03:04:05Z" } })).toBe(false);
  });
});
