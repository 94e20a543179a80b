// biome-ignore-all lint/suspicious/noTemplateCurlyInString: a config file writes its secrets as ${VARIABLE} references
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ConfigKey } from "../../../cli/config/index.ts";
import { applyConfig, CONFIG_KEY_NAMES, CONFIG_KEYS } from "../../../cli/config/index.ts";
import { runTimeoutOption } from "../../../cli/options/run-timeout-option.ts";
import {
  credentialsOption,
  resolveTarget,
  resolveTimeoutMs,
  targetOptions,
} from "../../../cli/options/target-options.ts";
import { it as base, describe, expect } from "../../support/fixtures.ts";
import { usageRefusal } from "../../support/usage-refusal.ts";

const SPECS = {
  ...targetOptions,
  ...runTimeoutOption,
  profile: { type: "string", description: "profile" },
  scenario: { type: "string", multiple: true, description: "scenario" },
} as const;

/** The config file the tests read, in the directory the file's tests share (dir). */
const it = base
  .extend("dir", { scope: "file" }, async ({ fileDir }) => fileDir)
  .extend("file", { scope: "file" }, async ({ dir }) => {
    const file = join(dir, "harness.json");
    await writeFile(
      file,
      JSON.stringify({
        defaults: { clientId: "from-file", timeout: 20, profile: "full" },
        environments: {
          staging: {
            authUrl: "https://auth.file.example.com",
            baseUrl: "https://api.file.example.com",
            clientSecret: "${STAGING_SECRET}",
            scenarios: ["sustained=30s", "idle-gap"],
            credentials: "clients.json",
            insecure: true,
          },
        },
      }),
    );
    return file;
  });

describe("applyConfig", () => {
  it("does nothing without a file, and refuses an environment without one", async () => {
    expect(await applyConfig(SPECS, {}, {})).toBeUndefined();
    const error = await usageRefusal(applyConfig(SPECS, { environment: "staging" }, {}));
    expect(error.message).toContain("give the file with --config FILE");
  });

  it("fills every setting the user left open, as the variable a user would export", async ({ file, dir }) => {
    const applied = await applyConfig(
      SPECS,
      { config: file, environment: "staging" },
      { STAGING_SECRET: "s-1" },
    );
    expect(applied?.env).toMatchObject({
      EVENT_API_AUTH_URL: "https://auth.file.example.com",
      EVENT_API_BASE_URL: "https://api.file.example.com",
      EVENT_API_CLIENT_ID: "from-file",
      EVENT_API_CLIENT_SECRET: "s-1",
      EVENT_API_TIMEOUT: "20",
      EVENT_API_INSECURE: "1",
      EVENT_API_CREDENTIALS_FILE: join(dir, "clients.json"),
      EVENT_HARNESS_CONFIG: file,
      EVENT_HARNESS_ENVIRONMENT: "staging",
    });
    expect(applied?.options).toMatchObject({ profile: "full", scenario: ["sustained=30s", "idle-gap"] });
    const target = resolveTarget(applied?.options ?? {}, applied?.env ?? {});
    expect(target?.tokenUrl).toBe("https://auth.file.example.com/oauth/token");
    expect(target?.clientSecret.reveal()).toBe("s-1");
  });

  it("puts flags first, then variables, then the file", async ({ file }) => {
    const applied = await applyConfig(
      SPECS,
      { config: file, environment: "staging", timeout: "3", profile: "fast", "client-id": "from-flag" },
      { STAGING_SECRET: "s-1", EVENT_API_TIMEOUT: "7", EVENT_API_BASE_URL: "https://api.env.example.com" },
    );
    const options = applied?.options ?? {};
    const env = applied?.env ?? {};
    expect(resolveTimeoutMs(options, env)).toBe(3000);
    expect(options.profile).toBe("fast");
    const target = resolveTarget(options, env);
    expect(target?.clientId).toBe("from-flag");
    expect(target?.baseUrl).toBe("https://api.env.example.com");
    expect(target?.tokenUrl).toBe("https://auth.file.example.com/oauth/token");
    const withoutFlag = await applyConfig(
      SPECS,
      { config: file },
      { STAGING_SECRET: "s", EVENT_API_TIMEOUT: "7" },
    );
    expect(resolveTimeoutMs(withoutFlag?.options ?? {}, withoutFlag?.env ?? {})).toBe(7000);
  });

  it("treats an empty variable as unset, as the flags' variables do", async ({ file }) => {
    const applied = await applyConfig(
      SPECS,
      { config: file },
      { STAGING_SECRET: "s", EVENT_API_CLIENT_ID: " " },
    );
    expect(applied?.env.EVENT_API_CLIENT_ID).toBe("from-file");
  });

  it("lets a token endpoint given outside the file replace the file's, whichever way each names it", async ({
    file,
  }) => {
    const applied = await applyConfig(
      SPECS,
      { config: file, "token-url": "https://sso.flag.example.com/token" },
      { STAGING_SECRET: "s" },
    );
    expect(applied?.env.EVENT_API_AUTH_URL).toBeUndefined();
    expect(resolveTarget(applied?.options ?? {}, applied?.env ?? {})?.tokenUrl).toBe(
      "https://sso.flag.example.com/token",
    );
  });

  it("refuses a reference to an unset variable, naming it, even when a flag or variable gives a secret", async ({
    file,
  }) => {
    const error = await usageRefusal(applyConfig(SPECS, { config: file, environment: "staging" }, {}));
    expect(error.code).toBe("invalid-config");
    expect(error.message).toContain("clientSecret of environment 'staging' refers to ${STAGING_SECRET}");
    expect(error.message).toContain("STAGING_SECRET is not set");
    // A secret meant for another environment never stands in for this one's.
    const crossing = await usageRefusal(
      applyConfig(SPECS, { config: file }, { EVENT_API_CLIENT_SECRET: "from-env" }),
    );
    expect(crossing.message).toContain("STAGING_SECRET is not set; EVENT_API_CLIENT_SECRET is set");
    expect(crossing.message).not.toContain("from-env");
  });

  it("takes the environment's secret when a flag or variable gives the very same one", async ({ file }) => {
    const applied = await applyConfig(
      SPECS,
      { config: file },
      { EVENT_API_CLIENT_SECRET: "same", STAGING_SECRET: "same" },
    );
    expect(applied?.env.EVENT_API_CLIENT_SECRET).toBe("same");
    expect(applied?.overrides).toEqual([]);
  });

  it("lists every setting of the file a flag or variable replaced, by the flag or variable's name", async ({
    file,
  }) => {
    const applied = await applyConfig(
      SPECS,
      { config: file, timeout: "3", scenario: ["spike"] },
      { STAGING_SECRET: "s", EVENT_API_TOKEN_URL: "https://other.example.com/token", EVENT_API_TIMEOUT: "9" },
    );
    expect(applied?.overrides).toEqual([
      "EVENT_API_TOKEN_URL overrides authUrl",
      "--timeout overrides timeout",
      "--scenario overrides scenarios",
    ]);
  });

  it("a flag naming the very file the config names overrides nothing; another file does", async ({
    file,
    dir,
  }) => {
    const specs = { ...SPECS, ...credentialsOption };
    const same = await applyConfig(
      specs,
      { config: file, credentials: join(dir, "clients.json") },
      { STAGING_SECRET: "s" },
    );
    expect(same?.overrides).toEqual([]);
    const other = await applyConfig(
      specs,
      { config: file, credentials: join(dir, "other-clients.json") },
      { STAGING_SECRET: "s" },
    );
    expect(other?.overrides).toEqual(["--credentials overrides credentials"]);
  });

  it("reads the file and environment from their variables when no flag names them", async ({ file }) => {
    const applied = await applyConfig(
      SPECS,
      {},
      { EVENT_HARNESS_CONFIG: file, EVENT_HARNESS_ENVIRONMENT: "staging", STAGING_SECRET: "s" },
    );
    expect(applied?.source).toEqual({ file, environment: "staging" });
  });
});

describe("every key that carries a secret", () => {
  const carriers = CONFIG_KEY_NAMES.filter((name) => (CONFIG_KEYS[name] as ConfigKey).secret !== undefined);

  it("includes the client secret and the token parameters", () => {
    expect(carriers).toEqual(expect.arrayContaining(["clientSecret", "tokenParams"]));
  });

  it.for(carriers)(
    "%s: a ${VARIABLE} value of the environment is never replaced by another from its variable or flag",
    async (name, { dir }) => {
      const key: ConfigKey = CONFIG_KEYS[name];
      const list = key.schema.safeParse([]).success;
      const mine = list ? ["p=${MINE}"] : "${MINE}";
      const config = join(dir, `carrier-${name}.json`);
      await writeFile(config, JSON.stringify({ environments: { staging: { [name]: mine } } }));
      const variable = key.option?.env as string;
      const other = list ? "p=other-value" : "other-value";
      const crossing = await usageRefusal(
        applyConfig(SPECS, { config }, { MINE: "mine-value", [variable]: other }),
      );
      expect(crossing.message).toContain(`given twice, and differently: by ${variable} and by ${name}`);
      expect(crossing.message).toContain("a secret never crosses environments");
      expect(crossing.message).not.toMatch(/mine-value|other-value/);
      const flagged = await usageRefusal(
        applyConfig(SPECS, { config, [key.flag]: list ? [other] : other }, { MINE: "mine-value" }),
      );
      expect(flagged.message).toContain(`by --${key.flag} and by ${name}`);
      const same = await applyConfig(
        SPECS,
        { config },
        { MINE: "mine-value", [variable]: list ? "p=mine-value" : "mine-value" },
      );
      expect(same?.overrides).toEqual([]);
    },
  );
});
