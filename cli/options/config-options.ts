import type { OptionSpecs } from "../command.ts";
import { displayPath } from "../display-path.ts";

/** The options that pick a config file and one of its environments; every command with target options takes them. */
export const configOptions = {
  config: {
    type: "string",
    valueName: "FILE",
    env: "EVENT_HARNESS_CONFIG",
    description:
      "JSON file of named environments (target settings, profile, scenarios); flags and EVENT_API_* variables override it.",
  },
  environment: {
    type: "string",
    short: "e",
    valueName: "NAME",
    env: "EVENT_HARNESS_ENVIRONMENT",
    description: "The environment of --config to use (may be left out when the file has only one).",
  },
} as const satisfies OptionSpecs;

/** Which file and environment a command's settings came from, for its header and reports. */
export interface ConfigSource {
  /** Absolute path of the config file. */
  readonly file: string;
  readonly environment: string;
}

/** Whether the user asked for a config file at all: only then is the file machinery loaded. */
export function configRequested(options: Readonly<Record<string, unknown>>, env: NodeJS.ProcessEnv): boolean {
  return [
    options.config,
    options.environment,
    env[configOptions.config.env],
    env[configOptions.environment.env],
  ].some((value) => typeof value === "string" && value.trim() !== "");
}

/** The config file and environment a command's settings came from, as applyConfig left them in its environment. */
export function configSourceOf(env: NodeJS.ProcessEnv): ConfigSource | undefined {
  const file = env[configOptions.config.env]?.trim();
  const environment = env[configOptions.environment.env]?.trim();
  return file && environment ? { file, environment } : undefined;
}

/** "environment 'staging' of config.json", for headers. */
export function describeConfigSource(source: ConfigSource): string {
  return `environment '${source.environment}' of ${displayPath(source.file)}`;
}
