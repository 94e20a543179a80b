// Writes docs/reference/cli.md from every command's --help; test/scripts/build/cli-reference.test.ts fails until it is run.
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { CLI_REFERENCE_PATH, renderCliReference } from "./cli-reference.ts";

const file = fileURLToPath(new URL(`../../${CLI_REFERENCE_PATH}`, import.meta.url));
await writeFile(file, await renderCliReference());
process.stdout.write(`wrote ${CLI_REFERENCE_PATH}\n`);
