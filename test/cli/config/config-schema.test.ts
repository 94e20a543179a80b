// biome-ignore-all lint/suspicious/noTemplateCurlyInString: a config file writes its secrets as ${VARIABLE} references
import { readdir, readFile } from "node:fs/promises";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import {
  CONFIG_KEY_NAMES,
  CONFIG_SCHEMA_PATH,
  configFileSchema,
  configJsonSchema,
} from "../../../cli/config/index.ts";

const root = new URL("../../../", import.meta.url);
const examples = new URL("examples/config/", root);

async function published(): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(new URL(CONFIG_SCHEMA_PATH, root), "utf8")) as Record<string, unknown>;
}

describe("the config file's JSON Schema", () => {
  it("is the one generated from the zod schema (npm run build:config-schema writes it)", async () => {
    expect(await published()).toEqual(configJsonSchema());
  });

  it("describes every key, for editor completion", async () => {
    const schema = (await published()) as {
      definitions: { environment: { properties: Record<string, { description?: string }> } };
    };
    const properties = schema.definitions.environment.properties;
    expect(Object.keys(properties)).toEqual(CONFIG_KEY_NAMES);
    for (const [name, property] of Object.entries(properties)) {
      expect(property.description, name).toMatch(/\w{3,}/);
    }
  });

  it("accepts the examples, which point at it, and refuses a literal secret and an unknown key as the harness does", async () => {
    const validate = new Ajv({ strict: true }).compile(await published());
    const files = (await readdir(examples)).filter((file) => file.endsWith(".json"));
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const file of files) {
      const data = JSON.parse(await readFile(new URL(file, examples), "utf8")) as { $schema?: string };
      expect(data.$schema, file).toBe(`../../${CONFIG_SCHEMA_PATH}`);
      expect(validate(data), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(configFileSchema.safeParse(data).success, file).toBe(true);
    }
    const literal = { environments: { a: { clientSecret: "literal" } } };
    const typo = { environments: { a: { clientSecert: "${X}" } } };
    for (const data of [literal, typo]) {
      expect(validate(data)).toBe(false);
      expect(configFileSchema.safeParse(data).success).toBe(false);
    }
  });
});
