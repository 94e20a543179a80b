import path from "node:path";
import { UsageError } from "../../core/index.ts";
import type { OptionSpecs } from "../command.ts";
import type { ConfigSource } from "../config-options.ts";
import { configOptions } from "../config-options.ts";
import { displayPath } from "../display-path.ts";
import type { ConfigKey, ConfigKeyName } from "./config-keys.ts";
import { CONFIG_KEYS } from "./config-keys.ts";
import { readConfigEnvironment } from "./read-config.ts";

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

type OptionValues = Readonly<Record<string, string | boolean | readonly string[] | undefined>>;

export interface AppliedConfig {
  /** The options, with the file's value for a flag that has no variable and was not given. */
  readonly options: Record<string, unknown>;
  /** The environment, with the file's value for every variable that was not set. */
  readonly env: NodeJS.ProcessEnv;
  readonly source: ConfigSource;
  /** Each `${NAME}` the file used, by the value it stood for: an error message names the variable, never the value. */
  readonly references: ReadonlyMap<string, string>;
}

function blank(value: string | undefined): boolean {
  return value === undefined || value.trim() === "";
}

/** A setting the user gave as a flag or a variable, which the file then does not touch. */
function givenOutside(
  key: ConfigKey,
  specs: OptionSpecs,
  options: OptionValues,
  env: NodeJS.ProcessEnv,
): boolean {
  const variable = key.option?.env;
  return (
    (key.flag in specs && options[key.flag] !== undefined) ||
    (variable !== undefined && !blank(env[variable]))
  );
}

/** `${NAME}` replaced by the variable's value; an unset or empty variable is a configuration error naming it. */
function resolveReferences(
  text: string,
  name: ConfigKeyName,
  source: ConfigSource,
  env: NodeJS.ProcessEnv,
  references: Map<string, string>,
): string {
  return text.replace(REFERENCE, (_, variable: string) => {
    const value = env[variable];
    if (blank(value)) {
      throw new UsageError(
        "invalid-config",
        `--config ${displayPath(source.file)}: ${name} of environment '${source.environment}' refers to \${${variable}}, but ${variable} is not set`,
      );
    }
    references.set(value as string, `\${${variable}}`);
    return value as string;
  });
}

/**
 * Applies the config file the options or variables name beneath them: flags first, then EVENT_API_* variables, then
 * the file. A key whose option has a variable is applied as that variable, so it reaches every reader of it (the
 * parts of a run included); a key without one fills its flag.
 */
export async function applyConfig(
  specs: OptionSpecs,
  options: OptionValues,
  env: NodeJS.ProcessEnv,
): Promise<AppliedConfig | undefined> {
  const file = options.config ?? env[configOptions.config.env];
  const environment = options.environment ?? env[configOptions.environment.env];
  if (typeof file !== "string" || blank(file)) {
    if (typeof environment === "string" && !blank(environment)) {
      throw new UsageError(
        "invalid-config",
        `--environment ${environment} picks an environment of a config file: give the file with --config FILE`,
      );
    }
    return undefined;
  }
  const { source, settings } = await readConfigEnvironment(
    file.trim(),
    typeof environment === "string" && !blank(environment) ? environment.trim() : undefined,
  );
  const entries = (Object.keys(settings) as ConfigKeyName[]).map(
    (name) => [name, CONFIG_KEYS[name] as ConfigKey] as const,
  );
  // Every key of a group counts, not only the file's: a --token-url replaces the file's authUrl.
  const overridden = new Set(
    (Object.values(CONFIG_KEYS) as ConfigKey[])
      .filter((key) => givenOutside(key, specs, options, env))
      .map((key) => key.group),
  );
  const filled: Record<string, unknown> = { ...options };
  const references = new Map<string, string>();
  const variables: Record<string, string> = {};
  for (const [name, key] of entries) {
    const raw = settings[name];
    if (raw === undefined || givenOutside(key, specs, options, env)) continue;
    if (key.group !== undefined && overridden.has(key.group)) continue;
    const resolve = (text: string) => {
      const value = resolveReferences(text, name, source, env, references);
      return key.path ? path.resolve(path.dirname(source.file), value) : value;
    };
    const value = Array.isArray(raw)
      ? raw.map((item) => resolve(String(item)))
      : typeof raw === "string"
        ? resolve(raw)
        : raw;
    const variable = key.option?.env;
    if (variable !== undefined) {
      // A list goes into its variable one item per line, as EVENT_API_TOKEN_PARAMS reads it.
      variables[variable] =
        value === true
          ? "1"
          : value === false
            ? "0"
            : Array.isArray(value)
              ? value.join("\n")
              : String(value);
    } else if (key.flag in specs) {
      filled[key.flag] = value;
    }
  }
  return {
    options: filled,
    env: {
      ...env,
      ...variables,
      [configOptions.config.env]: source.file,
      [configOptions.environment.env]: source.environment,
    },
    source,
    references,
  };
}
