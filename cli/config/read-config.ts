import path from "node:path";
import type { z } from "zod";
import { UsageError } from "../../core/index.ts";
import { readInputFile } from "../../transport/index.ts";
import { didYouMeanAside } from "../did-you-mean.ts";
import { displayPath } from "../display-path.ts";
import type { ConfigSource } from "../options/config-options.ts";
import { quotedName, shortName, someOf } from "../quoted-name.ts";
import type { ConfigKey, ConfigKeyName } from "./config-keys.ts";
import { CONFIG_KEY_NAMES, CONFIG_KEYS, SECRET_EXAMPLE, UNBRACED_REFERENCE } from "./config-keys.ts";
import type { EnvironmentSettings } from "./config-schema.ts";
import { configFileSchema } from "./config-schema.ts";
import { jsonErrorPosition } from "./json-error-position.ts";

export interface ConfigEnvironment {
  readonly source: ConfigSource;
  /** The environment's settings over the file's defaults, as written (references not yet resolved). */
  readonly settings: EnvironmentSettings;
}

const TOP_KEYS = Object.keys(configFileSchema.shape);

function configError(file: string, message: string): UsageError {
  return new UsageError("invalid-config", `--config ${displayPath(file)}: ${message}`);
}

function where(issuePath: readonly PropertyKey[]): string {
  return issuePath.length === 0 ? "" : `${issuePath.map(String).join(".")}: `;
}

/** The value at a schema issue's path in the parsed file. */
function valueAt(data: unknown, issuePath: readonly PropertyKey[]): unknown {
  let value = data;
  for (const key of issuePath) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** One schema issue in words; a value the user wrote is never repeated, since it may be a secret. */
function describeIssue(issue: z.core.$ZodIssue, data: unknown): string {
  if (issue.code === "unrecognized_keys") {
    const known = issue.path.length === 0 ? TOP_KEYS : CONFIG_KEY_NAMES;
    return someOf(
      issue.keys,
      "; ",
      (key) => `${where(issue.path)}unknown key ${quotedName(key)}${didYouMeanAside(key, known)}`,
    );
  }
  const last = issue.path.at(-1);
  const key: ConfigKey | undefined =
    typeof last === "string" && Object.hasOwn(CONFIG_KEYS, last)
      ? CONFIG_KEYS[last as ConfigKeyName]
      : undefined;
  if (key?.secret?.form === "reference") {
    const value = valueAt(data, issue.path);
    if (typeof value === "string" && UNBRACED_REFERENCE.test(value)) {
      // A shell's $NAME: the name is not repeated either, since a literal secret may start with $.
      return `${where(issue.path)}$NAME without braces is no reference (a config file does not replace it): the syntax is $\{NAME}, e.g. ${SECRET_EXAMPLE}, and that variable exported`;
    }
    return `${where(issue.path)}a literal secret is refused (a config file gets committed and copied): write a reference to an environment variable, e.g. ${SECRET_EXAMPLE}, and export that variable`;
  }
  if (issue.path.length === 2 && issue.path[0] === "environments" && issue.code === "invalid_format") {
    return `environments: ${quotedName(String(issue.path[1]))} is not an environment name (letters, digits, '.', '_', '-')`;
  }
  return `${where(issue.path)}${issue.message}`;
}

/**
 * Reads a config file and picks one environment (the only one when none is named); any problem is a UsageError
 * naming the file and the place in it.
 */
export async function readConfigEnvironment(
  file: string,
  environment: string | undefined,
): Promise<ConfigEnvironment> {
  const absolute = path.resolve(file);
  const reading = await readInputFile(absolute);
  if (!reading.ok) throw configError(absolute, `cannot be read: ${reading.problem}`);
  const { text } = reading;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    const at = jsonErrorPosition(text);
    throw configError(
      absolute,
      `not valid JSON${at === undefined ? "" : ` at line ${at.line}, column ${at.column}`}`,
    );
  }
  const parsed = configFileSchema.safeParse(data);
  if (!parsed.success) {
    throw configError(
      absolute,
      someOf(parsed.error.issues, "; ", (issue) => describeIssue(issue, data)),
    );
  }
  const names = Object.keys(parsed.data.environments);
  let name = environment;
  if (name === undefined) {
    if (names.length !== 1) {
      throw configError(
        absolute,
        names.length === 0
          ? "holds no environments"
          : `holds ${names.length} environments (${someOf(names, ", ", shortName)}): pick one with --environment NAME (-e)`,
      );
    }
    name = names[0] as string;
  }
  const chosen = Object.hasOwn(parsed.data.environments, name) ? parsed.data.environments[name] : undefined;
  if (chosen === undefined) {
    throw configError(
      absolute,
      `has no environment ${quotedName(name)}${didYouMeanAside(name, names)} (environments: ${someOf(names, ", ", shortName) || "none"})`,
    );
  }
  return {
    source: { file: absolute, environment: name },
    settings: { ...parsed.data.defaults, ...chosen },
  };
}
