// biome-ignore-all lint/suspicious/noTemplateCurlyInString: a config file writes its secrets as ${VARIABLE} references
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { contractCommand } from "../../../cli/commands/contract.ts";
import { runCommand } from "../../../cli/commands/run.ts";
import { tokenCommand } from "../../../cli/commands/token.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { runInProcess } from "../../support/run-in-process.ts";

// A value that came from ${VAR} may be a secret under the wrong key: an error names the variable, never the value.
async function configWith(dir: string, name: string, settings: Record<string, unknown>): Promise<string> {
  const file = join(dir, `${name}.json`);
  const environment = {
    baseUrl: "http://127.0.0.1:9/api",
    clientId: "reference-client",
    clientSecret: "${REFERENCE_CLIENT_SECRET}",
    authUrl: "http://127.0.0.1:9/auth",
    ...settings,
  };
  await writeFile(file, JSON.stringify({ environments: { staging: environment } }));
  return file;
}

const VALUE = "prod-Secret-93f1e7a2c4";
const cases: Array<[string, Record<string, unknown>, string]> = [
  ["a token URL", { authUrl: undefined, tokenUrl: "${SECRET_UNDER_WRONG_KEY}" }, VALUE],
  [
    "a token URL with another scheme",
    { authUrl: undefined, tokenUrl: "${SECRET_UNDER_WRONG_KEY}" },
    `ftp:${VALUE}`,
  ],
  ["a channel id", { channelId: "${SECRET_UNDER_WRONG_KEY}" }, VALUE],
  ["a base URL", { baseUrl: "${SECRET_UNDER_WRONG_KEY}" }, VALUE],
];

describe("an error about a setting from ${VAR} names the variable, never its value", () => {
  for (const [what, settings, value] of cases) {
    for (const command of [contractCommand, tokenCommand, runCommand]) {
      it(`${command.name}: ${what}`, async ({ tmpDir }) => {
        const file = await configWith(tmpDir, what.replaceAll(" ", "-"), settings);
        const run = await runInProcess(command, ["--config", file, "-e", "staging"], {
          SECRET_UNDER_WRONG_KEY: value,
          REFERENCE_CLIENT_SECRET: "the-client-secret-0",
        });
        expect(run.code, run.stderr).toBe(2);
        expect(run.stderr).toContain("${SECRET_UNDER_WRONG_KEY}");
        for (const output of [run.stdout, run.stderr]) {
          expect(output).not.toContain(VALUE);
          expect(output).not.toContain(VALUE.slice(0, 8));
        }
      });
    }
  }
});
