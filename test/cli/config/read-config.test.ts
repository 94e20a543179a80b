// biome-ignore-all lint/suspicious/noTemplateCurlyInString: a config file writes its secrets as ${VARIABLE} references
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { readConfigEnvironment } from "../../../cli/config/index.ts";
import { it } from "../../support/fixtures.ts";
import { usageRefusal } from "../../support/usage-refusal.ts";

async function configFile(dir: string, name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

const TWO = JSON.stringify({
  defaults: { clientId: "release-check", timeout: 20 },
  environments: {
    staging: { authUrl: "https://auth.staging.example.com", clientSecret: "${STAGING_SECRET}" },
    production: { tokenUrl: "https://sso.example.com/token", timeout: 5, profile: "fast" },
  },
});

describe("readConfigEnvironment", () => {
  it("picks the named environment over the file's defaults, references left for later", async ({
    tmpDir: dir,
  }) => {
    const file = await configFile(dir, "two.json", TWO);
    const staging = await readConfigEnvironment(file, "staging");
    expect(staging.source).toEqual({ file, environment: "staging" });
    expect(staging.settings).toEqual({
      clientId: "release-check",
      timeout: 20,
      authUrl: "https://auth.staging.example.com",
      clientSecret: "${STAGING_SECRET}",
    });
    const production = await readConfigEnvironment(file, "production");
    expect(production.settings).toMatchObject({ timeout: 5, profile: "fast", clientId: "release-check" });
  });

  it("uses the only environment when none is named, and asks for a name when there are several", async ({
    tmpDir: dir,
  }) => {
    const one = await configFile(
      dir,
      "one.json",
      JSON.stringify({ environments: { sandbox: { profile: "full" } } }),
    );
    expect((await readConfigEnvironment(one, undefined)).source.environment).toBe("sandbox");
    const error = await usageRefusal(
      readConfigEnvironment(await configFile(dir, "two.json", TWO), undefined),
    );
    expect(error.code).toBe("invalid-config");
    expect(error.message).toContain(
      "holds 2 environments (staging, production): pick one with --environment NAME",
    );
  });

  it("names an unknown environment's closest match and the ones there are", async ({ tmpDir: dir }) => {
    const error = await usageRefusal(readConfigEnvironment(await configFile(dir, "two.json", TWO), "stagin"));
    expect(error.message).toContain("has no environment 'stagin' (did you mean 'staging'?)");
    expect(error.message).toContain("(environments: staging, production)");
  });

  it("refuses a literal secret without repeating it", async ({ tmpDir: dir }) => {
    const literal = "s3cr3t-Literal-Value";
    const file = await configFile(
      dir,
      "literal.json",
      JSON.stringify({ environments: { staging: { clientSecret: literal } } }),
    );
    const error = await usageRefusal(readConfigEnvironment(file, "staging"));
    expect(error.code).toBe("invalid-config");
    expect(error.message).toContain("environments.staging.clientSecret: a literal secret is refused");
    expect(error.message).toContain('"${STAGING_SECRET}"');
    expect(error.message).not.toContain(literal);
    expect(error.message).not.toContain("s3cr3t");
  });

  it.for([
    ["$MY_STAGE_KEY", "$MY_STAGE_KEY"],
    ['"$MY_STAGE_KEY" (quotes inside the value)', '"$MY_STAGE_KEY"'],
  ])(
    "says the syntax is ${NAME} for a secret written %s, without repeating it",
    async ([_label, value], { tmpDir: dir }) => {
      const file = await configFile(
        dir,
        "unbraced.json",
        JSON.stringify({ environments: { staging: { clientSecret: value } } }),
      );
      const error = await usageRefusal(readConfigEnvironment(file, "staging"));
      expect(error.message).toContain(
        'environments.staging.clientSecret: $NAME without braces is no reference (a config file does not replace it): the syntax is ${NAME}, e.g. "${STAGING_SECRET}"',
      );
      expect(error.message).not.toContain("MY_STAGE_KEY");
    },
  );

  it("refuses a token parameter whose value is $NAME without braces, which would be sent as it is", async ({
    tmpDir: dir,
  }) => {
    const file = await configFile(
      dir,
      "unbraced-param.json",
      JSON.stringify({
        environments: { staging: { tokenParams: ["organization=org_1", "api_key=$MY_KEY"] } },
      }),
    );
    const error = await usageRefusal(readConfigEnvironment(file, "staging"));
    expect(error.message).toContain(
      "environments.staging.tokenParams.1: a value taken from an environment variable is written with braces, NAME=${VARIABLE}",
    );
    expect(error.message).not.toContain("MY_KEY");
  });

  it("refuses a secret that mixes a reference with literal text", async ({ tmpDir: dir }) => {
    const file = await configFile(
      dir,
      "mixed.json",
      JSON.stringify({ defaults: { clientSecret: "pre-${STAGING_SECRET}" }, environments: { a: {} } }),
    );
    const error = await usageRefusal(readConfigEnvironment(file, "a"));
    expect(error.message).toContain("defaults.clientSecret: a literal secret is refused");
    expect(error.message).not.toContain("pre-");
  });

  it("names an unknown key and the closest known one, at the top and in an environment", async ({
    tmpDir: dir,
  }) => {
    const file = await configFile(
      dir,
      "typo.json",
      JSON.stringify({ enviroments: {}, environments: { staging: { clientSecert: "${X}", baseURL: "u" } } }),
    );
    const error = await usageRefusal(readConfigEnvironment(file, "staging"));
    expect(error.message).toContain("unknown key 'enviroments' (did you mean 'environments'?)");
    expect(error.message).toContain(
      "environments.staging: unknown key 'clientSecert' (did you mean 'clientSecret'?)",
    );
    expect(error.message).toContain("unknown key 'baseURL' (did you mean 'baseUrl'?)");
  });

  it("keeps its message short for a key of a megabyte and for a hundred thousand unknown keys", async ({
    tmpDir: dir,
  }) => {
    const long = "k".repeat(1_000_000);
    const one = await usageRefusal(
      readConfigEnvironment(
        await configFile(dir, "long-key.json", JSON.stringify({ environments: { a: { [long]: 1 } } })),
        "a",
      ),
    );
    expect(one.message).toContain(`unknown key '${"k".repeat(60)}…' (1000000 characters)`);
    expect(one.message.length).toBeLessThan(500);
    const keys = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`unknownKey${i}`, 1]));
    const many = await usageRefusal(
      readConfigEnvironment(
        await configFile(dir, "many-keys.json", JSON.stringify({ environments: { a: keys } })),
        "a",
      ),
    );
    expect(many.message).toContain("environments.a: unknown key 'unknownKey9'; and 99990 more");
    expect(many.message.length).toBeLessThan(1000);
  });

  it("says where malformed JSON breaks, by line and column, without quoting the file", async ({
    tmpDir: dir,
  }) => {
    const text = '{\n  "environments": {\n    "staging": { "clientSecret": hunter2 }\n  }\n}\n';
    const error = await usageRefusal(
      readConfigEnvironment(await configFile(dir, "broken.json", text), "staging"),
    );
    expect(error.message).toMatch(/broken\.json: not valid JSON at line 3, column 34$/);
    expect(error.message).not.toContain("hunter2");
    const trailing = '{\n  "environments": {},\n}\n';
    const comma = await usageRefusal(
      readConfigEnvironment(await configFile(dir, "comma.json", trailing), undefined),
    );
    expect(comma.message).toContain("not valid JSON at line 3, column 1");
  });

  it("refuses a wrong type or value naming the key", async ({ tmpDir: dir }) => {
    const file = await configFile(
      dir,
      "types.json",
      JSON.stringify({ environments: { a: { timeout: "10", clientAuth: "digest", insecure: "yes" } } }),
    );
    const error = await usageRefusal(readConfigEnvironment(file, "a"));
    expect(error.message).toContain("environments.a.timeout: ");
    expect(error.message).toContain("environments.a.clientAuth: ");
    expect(error.message).toContain("environments.a.insecure: ");
  });

  it("says a missing file cannot be read", async ({ tmpDir: dir }) => {
    const error = await usageRefusal(readConfigEnvironment(join(dir, "absent.json"), undefined));
    expect(error.message).toContain("absent.json: cannot be read: no such file (ENOENT)");
  });
});
