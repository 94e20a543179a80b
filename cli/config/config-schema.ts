import { z } from "zod";
import type { ConfigKey } from "./config-keys.ts";
import { CONFIG_KEY_NAMES, CONFIG_KEYS } from "./config-keys.ts";

/** Where the JSON Schema generated from this file lives in the package, for `"$schema"` in config files. */
export const CONFIG_SCHEMA_PATH = "schemas/event-harness.config.schema.json";

/** The settings of one environment (or the defaults every environment starts from). */
export const environmentSchema = z
  .strictObject(
    Object.fromEntries(
      CONFIG_KEY_NAMES.map((name) => {
        const key: ConfigKey = CONFIG_KEYS[name];
        const variable =
          key.option?.env === undefined
            ? ""
            : key.secret?.form === "reference"
              ? ` Never overridden: a different one from --${key.flag} or ${key.option.env} is refused, since a secret never crosses environments.`
              : key.secret?.form === "in-references"
                ? ` Overridden by --${key.flag} and ${key.option.env}, unless it holds a $\{VARIABLE} reference: then a different value from them is refused, since a secret never crosses environments.`
                : ` Overridden by --${key.flag} and ${key.option.env}.`;
        const text = key.description ?? key.option?.description ?? "";
        return [name, key.schema.optional().describe(`${text}${variable}`)];
      }),
    ),
  )
  .meta({
    id: "environment",
    description: "Settings of one environment; flags and EVENT_API_* variables override each of them.",
  });

export type EnvironmentSettings = Partial<Record<(typeof CONFIG_KEY_NAMES)[number], unknown>>;

/** An environment's name, as `--environment` takes it. */
export const ENVIRONMENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The whole config file. */
export const configFileSchema = z
  .strictObject({
    $schema: z.string().optional().describe("The JSON Schema of this file, for editor completion."),
    defaults: environmentSchema
      .optional()
      .describe("Settings every environment starts from; an environment's own settings replace them."),
    environments: z
      .record(z.string().regex(ENVIRONMENT_NAME), environmentSchema)
      .describe("Named environments (e.g. staging, production); --environment NAME (-e) picks one."),
  })
  .describe("event-harness config file: named environments of target settings and run defaults.");

export type ConfigFile = z.infer<typeof configFileSchema>;

/** The JSON Schema published at CONFIG_SCHEMA_PATH, generated from the zod schema the harness reads files with. */
export function configJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(configFileSchema, { target: "draft-07", io: "input" }) as Record<string, unknown>;
}
