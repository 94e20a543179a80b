// biome-ignore-all lint/suspicious/noTemplateCurlyInString: a config file writes its secrets as ${VARIABLE} references
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { contractCommand } from "../../../cli/commands/contract.ts";
import { tokenCommand } from "../../../cli/commands/token.ts";
import { describe, expect, test } from "../../support/fixtures.ts";
import { runInProcess } from "../../support/run-in-process.ts";
import { startTokenTrap } from "../../support/token-trap.ts";

const PRODUCTION_SECRET = "production-secret-never-to-staging-5c1e";
const STAGING = { clientId: "staging-client", clientSecret: "staging-secret-8d2f6a" };

/**
 * `configs`: in the test's tmpDir (`work`), a config whose staging token endpoint is a trap (whatever reaches it was
 * sent to staging) and one whose staging is a sandbox; the trap and the sandbox closed after the test.
 */
const it = test.extend("configs", async ({ tmpDir: work, sandbox: start }, { onCleanup }) => {
  const trap = await startTokenTrap();
  onCleanup(() => trap.close());
  const sandbox = await start({ clients: [STAGING] });
  const write = async (name: string, staging: Record<string, unknown>) => {
    const file = path.join(work, name);
    await writeFile(
      file,
      JSON.stringify({
        environments: {
          staging: { clientId: STAGING.clientId, clientSecret: "${STAGING_SECRET}", timeout: 4, ...staging },
        },
      }),
    );
    return file;
  };
  const trapConfig = await write("trap.json", { tokenUrl: trap.tokenUrl, baseUrl: `${trap.url}/api` });
  const sandboxConfig = await write("sandbox.json", { authUrl: sandbox.authUrl, baseUrl: sandbox.baseUrl });
  return { work, trap, sandbox, trapConfig, sandboxConfig };
});

const staging = (file: string) => ["--config", file, "-e", "staging"];

describe("a secret never crosses environments", () => {
  it("a job-wide EVENT_API_CLIENT_SECRET is not sent to an environment whose own secret variable is unset (exit 2)", async ({
    configs: { trap, trapConfig },
  }) => {
    const run = await runInProcess(tokenCommand, staging(trapConfig), {
      EVENT_API_CLIENT_SECRET: PRODUCTION_SECRET,
    });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(
      "clientSecret of environment 'staging' refers to ${STAGING_SECRET}, but STAGING_SECRET is not set",
    );
    expect(run.stderr).toContain("EVENT_API_CLIENT_SECRET is set, but a secret never crosses environments");
    expect(trap.requests).toEqual([]);
    expect(`${run.stdout}${run.stderr}`).not.toContain(PRODUCTION_SECRET);
  });

  it.for([
    ["EVENT_API_CLIENT_SECRET", [], { EVENT_API_CLIENT_SECRET: PRODUCTION_SECRET }],
    ["--client-secret", ["--client-secret", PRODUCTION_SECRET], {}],
  ] as const)(
    "a different secret from %s is exit 2 naming both sources, never the values",
    async ([source, args, env], { configs: { trap, trapConfig } }) => {
      const run = await runInProcess(tokenCommand, [...staging(trapConfig), ...args], {
        ...env,
        STAGING_SECRET: STAGING.clientSecret,
      });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(
        `the client secret is given twice, and differently: by ${source} and by clientSecret of environment 'staging' (\${STAGING_SECRET})`,
      );
      expect(trap.requests).toEqual([]);
      expect(`${run.stdout}${run.stderr}`).not.toContain(PRODUCTION_SECRET);
      expect(`${run.stdout}${run.stderr}`).not.toContain(STAGING.clientSecret);
    },
  );

  it("the same secret from both sources is no conflict", async ({ configs: { sandboxConfig } }) => {
    const run = await runInProcess(tokenCommand, staging(sandboxConfig), {
      EVENT_API_CLIENT_SECRET: STAGING.clientSecret,
      STAGING_SECRET: STAGING.clientSecret,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain("overrides clientSecret");
  });

  it("an environment that names no secret takes the variable's", async ({ configs: { work, sandbox } }) => {
    const file = path.join(work, "no-secret.json");
    await writeFile(
      file,
      JSON.stringify({
        environments: {
          local: { authUrl: sandbox.authUrl, baseUrl: sandbox.baseUrl, clientId: STAGING.clientId },
        },
      }),
    );
    const run = await runInProcess(tokenCommand, ["--config", file], {
      EVENT_API_CLIENT_SECRET: STAGING.clientSecret,
    });
    expect(run.code, run.stderr).toBe(0);
  });
});

describe("a token parameter taken from a ${VARIABLE} never crosses environments", () => {
  const PRODUCTION_KEY = "production-api-key-never-to-staging-77ab";
  const STAGING_KEY = "staging-api-key-41c9";
  /** The trap config with staging's own token parameters, in the test's directory. */
  const withParams = async (work: string, trapConfig: string, tokenParams: readonly string[]) => {
    const config = JSON.parse(await readFile(trapConfig, "utf8")) as {
      environments: { staging: Record<string, unknown> };
    };
    config.environments.staging.tokenParams = tokenParams;
    const file = path.join(work, `params-${tokenParams.length}.json`);
    await writeFile(file, JSON.stringify(config));
    return file;
  };

  it.for([
    ["EVENT_API_TOKEN_PARAMS", [], { EVENT_API_TOKEN_PARAMS: `api_key=${PRODUCTION_KEY}` }],
    ["--token-param", ["--token-param", `api_key=${PRODUCTION_KEY}`], {}],
  ] as const)(
    "another value from %s is exit 2 naming both sources, and nothing reaches staging's token endpoint",
    async ([source, args, env], { configs: { work, trap, trapConfig } }) => {
      const file = await withParams(work, trapConfig, ["organization=org_1", "api_key=${STAGING_KEY}"]);
      const run = await runInProcess(tokenCommand, [...staging(file), ...args], {
        ...env,
        STAGING_SECRET: STAGING.clientSecret,
        STAGING_KEY,
      });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(
        `the token parameters are given twice, and differently: by ${source} and by tokenParams of environment 'staging' (\${STAGING_KEY}); a secret never crosses environments`,
      );
      expect(trap.requests).toEqual([]);
      for (const value of [PRODUCTION_KEY, STAGING_KEY, STAGING.clientSecret]) {
        expect(`${run.stdout}${run.stderr}`).not.toContain(value);
      }
    },
  );

  it("a job-wide EVENT_API_TOKEN_PARAMS does not stand in for the environment's unset variable (exit 2)", async ({
    configs: { work, trap, trapConfig },
  }) => {
    const file = await withParams(work, trapConfig, ["api_key=${STAGING_KEY}"]);
    const run = await runInProcess(tokenCommand, staging(file), {
      EVENT_API_TOKEN_PARAMS: `api_key=${PRODUCTION_KEY}`,
      STAGING_SECRET: STAGING.clientSecret,
    });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(
      "tokenParams of environment 'staging' refers to ${STAGING_KEY}, but STAGING_KEY is not set; EVENT_API_TOKEN_PARAMS is set, but a secret never crosses environments: export STAGING_KEY for this one",
    );
    expect(trap.requests).toEqual([]);
    expect(`${run.stdout}${run.stderr}`).not.toContain(PRODUCTION_KEY);
  });

  it("the same parameters from both sources are no conflict, in any order", async ({
    configs: { work, sandbox },
  }) => {
    const file = path.join(work, "same-params.json");
    await writeFile(
      file,
      JSON.stringify({
        environments: {
          staging: {
            authUrl: sandbox.authUrl,
            baseUrl: sandbox.baseUrl,
            clientId: STAGING.clientId,
            clientSecret: "${STAGING_SECRET}",
            tokenParams: ["api_key=${STAGING_KEY}", "organization=org_1"],
          },
        },
      }),
    );
    const run = await runInProcess(tokenCommand, staging(file), {
      EVENT_API_TOKEN_PARAMS: `organization=org_1\napi_key=${STAGING_KEY}\n`,
      STAGING_SECRET: STAGING.clientSecret,
      STAGING_KEY,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain("overrides tokenParams");
  });

  it("literal parameters, which hold no secret of the environment, are overridden as any setting is", async ({
    configs: { work, sandbox },
  }) => {
    const file = path.join(work, "literal-params.json");
    await writeFile(
      file,
      JSON.stringify({
        environments: {
          staging: {
            authUrl: sandbox.authUrl,
            baseUrl: sandbox.baseUrl,
            clientId: STAGING.clientId,
            clientSecret: "${STAGING_SECRET}",
            tokenParams: ["organization=org_1"],
          },
        },
      }),
    );
    const run = await runInProcess(tokenCommand, [...staging(file), "--token-param", "organization=org_2"], {
      STAGING_SECRET: STAGING.clientSecret,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("--token-param overrides tokenParams");
  });
});

describe("the header names what overrode the config", () => {
  it("names each flag and EVENT_API_* variable that replaced a setting of the file, never a value", async ({
    configs: { work, sandbox, sandboxConfig },
  }) => {
    const run = await runInProcess(
      contractCommand,
      [
        ...staging(sandboxConfig),
        "--token-url",
        sandbox.tokenUrl,
        "--timeout",
        "5",
        "--only",
        "token.issued",
        "--report-dir",
        path.join(work, "overrides"),
      ],
      { STAGING_SECRET: STAGING.clientSecret, EVENT_API_BASE_URL: sandbox.baseUrl },
    );
    expect(run.code, run.stderr).toBe(0);
    const header = run.stderr.split("\n").find((line) => line.includes("settings from environment"));
    expect(header).toBe(
      `event-harness: settings from environment 'staging' of ${sandboxConfig} (flags and EVENT_API_* variables override it): --token-url overrides authUrl, EVENT_API_BASE_URL overrides baseUrl, --timeout overrides timeout`,
    );
  });

  it("says nothing more when nothing overrode it", async ({ configs: { sandboxConfig } }) => {
    const run = await runInProcess(tokenCommand, staging(sandboxConfig), {
      STAGING_SECRET: STAGING.clientSecret,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      `event-harness: settings from environment 'staging' of ${sandboxConfig} (flags and EVENT_API_* variables override it)\n`,
    );
  });
});
