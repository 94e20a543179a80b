// Writes the config file's JSON Schema from its zod schema; test/cli/config/config-schema.test.ts fails until it is run.
import { writeFile } from "node:fs/promises";
import { CONFIG_SCHEMA_PATH, configJsonSchema } from "../../cli/config/index.ts";

const file = new URL(`../../${CONFIG_SCHEMA_PATH}`, import.meta.url);
await writeFile(file, `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
process.stdout.write(`wrote ${CONFIG_SCHEMA_PATH}\n`);
