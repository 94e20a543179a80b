import path from "node:path";
import { UsageError } from "../../core/index.ts";
import type { OptionSpecs } from "../command.ts";
import { displayPath } from "../display-path.ts";
import type { ConfigSource } from "../options/config-options.ts";
import { configOptions } from "../options/config-options.ts";
import type { ConfigKey, ConfigKeyName, SecretBearing } from "./config-keys.ts";
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
  /** Each flag (without --) whose value in `options` came from the file, not from the command line. */
  readonly filled: readonly string[];
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

/** A list a flag (repeated) or variable (one item a line) gives, as its option reads it: blank items left out. */
function outsideItems(
  source: string,
  key: ConfigKey,
  options: OptionValues,
  env: NodeJS.ProcessEnv,
): string[] {
  const value = source.startsWith("--") ? options[key.flag] : (env[source] ?? "").split("\n");
  const items = Array.isArray(value) ? value.map(String) : [String(value ?? "")];
  return items.filter((item) => item.trim() !== "");
}

/** The variables a value refers to, each once, in order. */
function referencedVariables(raw: string | readonly string[]): string[] {
  const texts = typeof raw === "string" ? [raw] : raw;
  return [...new Set(texts.flatMap((text) => [...text.matchAll(REFERENCE)].map((m) => m[1] as string)))];
}

/** One value as compared: a string trimmed, a list's items in sorted order (their order means nothing). */
function comparable(value: string | readonly string[]): string {
  return typeof value === "string" ? value.trim() : JSON.stringify([...value].sort());
}

/**
 * A value an environment takes from its own variables is the only one it gets, for every key that carries a secret
 * (its `secret`): a flag or variable giving another (a job-wide EVENT_API_CLIENT_SECRET or EVENT_API_TOKEN_PARAMS
 * meant for production, say) is a configuration error naming both sources and no value, and so is one of the
 * environment's variables being unset while the other source is set. The same value from both is no override.
 */
function refuseCrossingSecret(
  name: ConfigKeyName,
  secret: SecretBearing,
  written: string | readonly string[],
  outside: { readonly source: string; readonly value: string | readonly string[] },
  source: ConfigSource,
  env: NodeJS.ProcessEnv,
): void {
  const variables = referencedVariables(written);
  const mine = `${name} of environment '${source.environment}' (${variables.map((v) => `\${${v}}`).join(", ")})`;
  const flag = outside.source.startsWith("--");
  const unset = variables.find((v) => blank(env[v]));
  if (unset !== undefined) {
    throw new UsageError(
      "invalid-config",
      `--config ${displayPath(source.file)}: ${name} of environment '${source.environment}' refers to \${${unset}}, but ${unset} is not set; ${outside.source} ${flag ? "is given" : "is set"}, but a secret never crosses environments: export ${unset} for this one`,
    );
  }
  const resolve = (text: string) => resolveReferences(text, name, source, env, new Map());
  const mineResolved = typeof written === "string" ? resolve(written) : written.map(resolve);
  if (comparable(mineResolved) !== comparable(outside.value)) {
    throw new UsageError(
      "invalid-config",
      `--config ${displayPath(source.file)}: ${secret.what} ${typeof written === "string" ? "is" : "are"} given twice, and differently: by ${outside.source} and by ${mine}; a secret never crosses environments: ${flag ? "drop" : "unset"} ${outside.source} for this run, or remove ${name} from environment '${source.environment}'`,
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
  const filledFlags: string[] = [];
  for (const [name, key] of entries) {
    const raw = settings[name];
    if (raw === undefined) continue;
    const by = givenOutside(key, specs, options, env) ?? groupSources.get(key.group);
    if (by !== undefined) {
      const written = typeof raw === "string" ? raw : Array.isArray(raw) ? raw.map(String) : undefined;
      if (key.secret !== undefined && written !== undefined && referencedVariables(written).length > 0) {
        const value =
          typeof written === "string"
            ? outsideValue(by, key, options, env)
            : outsideItems(by, key, options, env);
        refuseCrossingSecret(name, key.secret, written, { source: by, value }, source, env);
        // The same value from both: nothing was overridden.
        continue;
      }
      // The file's own path given again (an Action input beside the config naming its ledger) overrides nothing.
      if (key.path === true && typeof raw === "string" && !raw.includes("${")) {
        const outside = outsideValue(by, key, options, env);
        if (outside !== "" && path.resolve(outside) === path.resolve(path.dirname(source.file), raw))
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
      filledFlags.push(key.flag);
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
    filled: filledFlags,
    references,
  };
}
