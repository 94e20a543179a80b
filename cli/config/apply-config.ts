import path from "node:path";
import { UsageError } from "../../core/index.ts";
import type { OptionSpecs } from "../command.ts";
import type { ConfigSource } from "../config-options.ts";
import { configOptions } from "../config-options.ts";
import { displayPath } from "../display-path.ts";
import type { ConfigKey, ConfigKeyName } from "./config-keys.ts";
import { CONFIG_KEY_NAMES, CONFIG_KEYS } from "./config-keys.ts";
import { readConfigEnvironment } from "./read-config.ts";

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

type OptionValues = Readonly<Record<string, string | boolean | readonly string[] | undefined>>;

export interface AppliedConfig {
  /** The options, with the file's value for a flag that has no variable and was not given. */
  readonly options: Record<string, unknown>;
  /** The environment, with the file's value for every variable that was not set. */
  readonly env: NodeJS.ProcessEnv;
  readonly source: ConfigSource;
  /** Each setting of the file that a flag or variable replaced, as the header says it: "--timeout overrides timeout". */
  readonly overrides: readonly string[];
  /** Each `${NAME}` the file used, by the value it stood for: an error message names the variable, never the value. */
  readonly references: ReadonlyMap<string, string>;
}

function blank(value: string | undefined): boolean {
  return value === undefined || value.trim() === "";
}

/**
 * The flag or variable through which the user gave a setting, which the file then does not touch (the flag when
 * both are given: it wins); undefined when neither is given.
 */
function givenOutside(
  key: ConfigKey,
  specs: OptionSpecs,
  options: OptionValues,
  env: NodeJS.ProcessEnv,
): string | undefined {
  const variable = key.option?.env;
  if (key.flag in specs && options[key.flag] !== undefined) return `--${key.flag}`;
  if (variable !== undefined && !blank(env[variable])) return variable;
  return undefined;
}

/** The value a flag or variable named by givenOutside holds. */
function outsideValue(source: string, key: ConfigKey, options: OptionValues, env: NodeJS.ProcessEnv): string {
  const value = source.startsWith("--") ? options[key.flag] : env[source];
  return String(value ?? "").trim();
}

/**
 * A secret the chosen environment names itself is the only one it gets: a flag or variable giving another (a
 * job-wide EVENT_API_CLIENT_SECRET meant for production, say) is a configuration error naming both sources and
 * neither value, and so is the environment's own variable being unset while another source is set.
 */
function refuseCrossingSecret(
  name: ConfigKeyName,
  written: string,
  outside: { readonly source: string; readonly value: string },
  source: ConfigSource,
  env: NodeJS.ProcessEnv,
): void {
  const mine = `${name} of environment '${source.environment}' (${written})`;
  const flag = outside.source.startsWith("--");
  const unset = [...written.matchAll(REFERENCE)]
    .map((match) => match[1] as string)
    .find((v) => blank(env[v]));
  if (unset !== undefined) {
    throw new UsageError(
      "invalid-config",
      `--config ${displayPath(source.file)}: ${name} of environment '${source.environment}' refers to \${${unset}}, but ${unset} is not set; ${outside.source} ${flag ? "is given" : "is set"}, but a secret never crosses environments: export ${unset} for this one`,
    );
  }
  if (resolveReferences(written, name, source, env, new Map()).trim() !== outside.value) {
    throw new UsageError(
      "invalid-config",
      `--config ${displayPath(source.file)}: the client secret is given twice, and differently: by ${outside.source} and by ${mine}; a secret never crosses environments: ${flag ? "drop" : "unset"} ${outside.source} for this run, or remove ${name} from environment '${source.environment}'`,
    );
  }
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
  // In the keys' own order, so the header names overrides the same way whatever order the file has.
  const entries = CONFIG_KEY_NAMES.filter((name) => Object.hasOwn(settings, name)).map(
    (name) => [name, CONFIG_KEYS[name] as ConfigKey] as const,
  );
  // Every key of a group counts, not only the file's: a --token-url replaces the file's authUrl.
  const groupSources = new Map<ConfigKey["group"], string>();
  for (const key of Object.values(CONFIG_KEYS) as ConfigKey[]) {
    const by = givenOutside(key, specs, options, env);
    if (by !== undefined && key.group !== undefined && !groupSources.has(key.group))
      groupSources.set(key.group, by);
  }
  const filled: Record<string, unknown> = { ...options };
  const references = new Map<string, string>();
  const variables: Record<string, string> = {};
  const overrides: string[] = [];
  for (const [name, key] of entries) {
    const raw = settings[name];
    if (raw === undefined) continue;
    const by = givenOutside(key, specs, options, env) ?? groupSources.get(key.group);
    if (by !== undefined) {
      if (key.secret === true && typeof raw === "string") {
        const value = outsideValue(by, key, options, env);
        refuseCrossingSecret(name, raw, { source: by, value }, source, env);
        // The same secret from both: nothing was overridden.
        continue;
      }
      overrides.push(`${by} overrides ${name}`);
      continue;
    }
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
    overrides,
    references,
  };
}
