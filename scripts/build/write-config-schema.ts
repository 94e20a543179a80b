// Writes the config file's JSON Schema from its zod schema; test/cli/config/config-schema.test.ts fails until it is run.
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { CONFIG_SCHEMA_PATH, configJsonSchema } from "../../cli/config/index.ts";

const root = new URL("../../", import.meta.url);
const file = fileURLToPath(new URL(CONFIG_SCHEMA_PATH, root));
await writeFile(file, `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
// Formatted as `npm run check` expects, so a regenerated file passes it unchanged.
execFileSync(fileURLToPath(new URL("node_modules/.bin/biome", root)), ["format", "--write", file], {
  stdio: "ignore",
});
process.stdout.write(`wrote ${CONFIG_SCHEMA_PATH}\n`);
