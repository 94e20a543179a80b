import { z } from "zod";
import { CLIENT_AUTH_METHODS } from "../../transport/index.ts";
import type { OptionSpec } from "../command.ts";
import { acceptedOption, baselineOptions } from "../options/gate-options.ts";
import { thresholdOption } from "../options/load-options.ts";
import { runTimeoutOption } from "../options/run-timeout-option.ts";
import { credentialsOption, targetOptions } from "../options/target-options.ts";

/** How a file writes a secret, shown in messages and help. */
export const SECRET_EXAMPLE = `"$\{STAGING_SECRET}"`;

/** A secret is only ever a reference to an environment variable, so the file can be committed. */
export const SECRET_REFERENCE = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;

/** `$NAME` (quoted or not) where `${NAME}` was meant: a shell's reference, which a config file does not replace. */
export const UNBRACED_REFERENCE = /^\s*(["']?)\$[A-Za-z_][A-Za-z0-9_]*\1\s*$/;

/**
 * A key whose value carries a secret of its environment: `reference`, the whole value is one `${VARIABLE}` (a literal
 * is refused); `in-references`, each `${VARIABLE}` it holds is one and its literal text is none (token parameters:
 * `api_key=${STAGING_KEY}` beside `organization=org_1`). A value holding a reference is never replaced by a flag or
 * variable (a job-wide one meant for another environment): another value from there is exit 2 naming both sources.
 */
export interface SecretBearing {
  readonly form: "reference" | "in-references";
  /** What the value is, in a sentence: "the client secret", "the token parameters". */
  readonly what: string;
}

/** One key of an environment in a config file: the option (flag, variable) it stands for and its JSON type. */
export interface ConfigKey {
  /** The flag it stands for, without `--`; a command without that flag ignores the key unless it has `env`. */
  readonly flag: string;
  /** The option's own definition: its variable and help text are the key's; none for a flag without a variable. */
  readonly option?: OptionSpec;
  readonly schema: z.ZodType;
  /** How the key carries a secret, which binds its value to its environment (see SecretBearing). */
  readonly secret?: SecretBearing;
  /** A file path, read relative to the config file. */
  readonly path?: true;
  /** Keys that say one thing in different ways: a flag or variable for any of them overrides all of them. */
  readonly group?: "token-endpoint";
  /** Replaces the option's help text where the file needs other words. */
  readonly description?: string;
}

const seconds = z.number().positive();

/**
 * Every key an environment may hold. A new setting is one entry: the flag's definition (cli/options/target-options.ts)
 * gives its variable and help text, and the schema, the JSON Schema, the precedence and the header follow.
 */
export const CONFIG_KEYS = {
  authUrl: {
    flag: "auth-url",
    option: targetOptions["auth-url"],
    schema: z.string(),
    group: "token-endpoint",
  },
  tokenUrl: {
    flag: "token-url",
    option: targetOptions["token-url"],
    schema: z.string(),
    group: "token-endpoint",
  },
  issuer: {
    flag: "issuer",
    option: targetOptions.issuer,
    schema: z.string(),
    group: "token-endpoint",
  },
  baseUrl: { flag: "base-url", option: targetOptions["base-url"], schema: z.string() },
  clientId: { flag: "client-id", option: targetOptions["client-id"], schema: z.string() },
  clientSecret: {
    flag: "client-secret",
    option: targetOptions["client-secret"],
    schema: z.string().regex(SECRET_REFERENCE, {
      error: `a secret is written as a reference to an environment variable, e.g. ${SECRET_EXAMPLE}`,
    }),
    secret: { form: "reference", what: "the client secret" },
    description: `OAuth client secret, only as a reference to an environment variable: ${SECRET_EXAMPLE}. A literal secret is refused.`,
  },
  clientAuth: {
    flag: "client-auth",
    option: targetOptions["client-auth"],
    schema: z.enum(CLIENT_AUTH_METHODS),
  },
  scope: { flag: "scope", option: targetOptions.scope, schema: z.string() },
  audience: { flag: "audience", option: targetOptions.audience, schema: z.string() },
  resource: { flag: "resource", option: targetOptions.resource, schema: z.string() },
  tokenParams: {
    flag: "token-param",
    option: targetOptions["token-param"],
    schema: z.array(
      z
        .string()
        .regex(/^[^=]+=/, { error: "a token parameter is written NAME=VALUE" })
        .refine((param) => !UNBRACED_REFERENCE.test(param.slice(param.indexOf("=") + 1)), {
          error: `a value taken from an environment variable is written with braces, NAME=$\{VARIABLE}: $VARIABLE is not replaced and would be sent as it is`,
        }),
    ),
    secret: { form: "in-references", what: "the token parameters" },
    description: `Further form fields of every token request, each "NAME=VALUE" (e.g. ["organization=org_1"]); a value may be a $\{VARIABLE} reference, which holds a secret of this environment.`,
  },
  channelId: { flag: "channel-id", option: targetOptions["channel-id"], schema: z.string() },
  timeout: { flag: "timeout", option: targetOptions.timeout, schema: seconds },
  runTimeout: { flag: "run-timeout", option: runTimeoutOption["run-timeout"], schema: seconds },
  insecure: { flag: "insecure", option: targetOptions.insecure, schema: z.boolean() },
  credentials: {
    flag: "credentials",
    option: credentialsOption.credentials,
    schema: z.string(),
    path: true,
    description:
      'Load runs: a JSON file listing {"client_id","client_secret"}, relative to this config file; VUs spread over the clients.',
  },
  accepted: {
    flag: "accepted",
    option: acceptedOption.accepted,
    schema: z.string(),
    path: true,
    description:
      "The ledger of accepted deviations (JSON), relative to this config file: failing accepted checks and load gates are WAIVED until their expires date.",
  },
  baseline: {
    flag: "baseline",
    option: baselineOptions.baseline,
    schema: z.union([z.string(), z.array(z.string())]),
    path: true,
    description:
      "Load runs: the baseline to compare with, relative to this config file (a baseline file, a load report dir, or a run's report dir), or a list of them: each load scenario takes its own.",
  },
  profile: {
    flag: "profile",
    schema: z.enum(["fast", "full"]),
    description: "Contract profile for contract and run: fast or full (the --profile flag overrides it).",
  },
  thresholds: {
    flag: "threshold",
    option: thresholdOption.threshold,
    schema: z.array(z.string().regex(/^[^=]+=/, { error: "a threshold is written NAME=EXPR" })),
    description:
      'Load runs\' thresholds, each "NAME=EXPR" (e.g. ["http_req_duration{endpoint:events}=p(95)<300"]): they replace the scenario\'s defaults for those metrics, and a capacity search holds each step to them (--threshold overrides them).',
  },
  scenarios: {
    flag: "scenario",
    schema: z.array(z.string()),
    description:
      'Load scenarios of run, each NAME or NAME=DURATION, e.g. ["sustained=30s", "idle-gap"] (--scenario overrides them).',
  },
} as const satisfies Readonly<Record<string, ConfigKey>>;

export type ConfigKeyName = keyof typeof CONFIG_KEYS;
export const CONFIG_KEY_NAMES = Object.keys(CONFIG_KEYS) as ConfigKeyName[];
