import { UsageError } from "../../core/index.ts";
import { RUN_BOUNDS } from "../../load/index.ts";
import type { Connection } from "../../transport/connection/index.ts";
import { connectionFromEnv, DIRECT, trustedCas } from "../../transport/connection/index.ts";
import type { ClientAuth, Target } from "../../transport/index.ts";
import { CLIENT_AUTH_METHODS, resolveTokenUrl, Secret } from "../../transport/index.ts";
import type { OptionSpecs, ParsedOptions } from "../command.ts";
import { inHelpGroup } from "../command.ts";
import { didYouMean } from "../did-you-mean.ts";
import { configOptions } from "./config-options.ts";
import { parseNumber } from "./parse-option-value.ts";

/** --audience none: no audience form field at all, for a server that refuses any audience not registered. */
export const NO_AUDIENCE = "none";

/** The options every command that talks to a target shares; each falls back to its environment variable. */
export const targetOptions = inHelpGroup("Target options (the API under test)", {
  "auth-url": {
    type: "string",
    valueName: "URL",
    env: "EVENT_API_AUTH_URL",
    description: "Base address of the authorisation server; tokens come from {auth-url}/oauth/token.",
  },
  "token-url": {
    type: "string",
    valueName: "URL",
    env: "EVENT_API_TOKEN_URL",
    description:
      "The full token endpoint, instead of --auth-url (e.g. Keycloak's …/realms/R/protocol/openid-connect/token).",
  },
  issuer: {
    type: "string",
    valueName: "URL",
    env: "EVENT_API_ISSUER",
    description:
      "The authorisation server's issuer, instead of --auth-url/--token-url: the token endpoint and client authentication come from its metadata (OpenID Connect Discovery, else RFC 8414).",
  },
  "base-url": {
    type: "string",
    valueName: "URL",
    env: "EVENT_API_BASE_URL",
    description: "Base address of the API; events go to {base-url}/events.",
  },
  "client-id": {
    type: "string",
    valueName: "ID",
    env: "EVENT_API_CLIENT_ID",
    description: "OAuth client id.",
  },
  "client-secret": {
    type: "string",
    valueName: "SECRET",
    env: "EVENT_API_CLIENT_SECRET",
    description:
      "OAuth client secret. Prefer the environment variable: flags end up in shell history and ps.",
  },
  audience: {
    type: "string",
    valueName: "URL",
    env: "EVENT_API_AUDIENCE",
    description: `The audience form field (default: the base URL; "${NO_AUDIENCE}": not sent, for a server that refuses audiences not registered for the client).`,
  },
  "client-auth": {
    type: "string",
    valueName: "METHOD",
    env: "EVENT_API_CLIENT_AUTH",
    description:
      "post (default: id and secret as form fields, as the spec shows) or basic (HTTP Basic header); with --issuer, the default is what its metadata lists. Given, it is binding: the preflight never switches it.",
  },
  scope: {
    type: "string",
    valueName: "SCOPES",
    env: "EVENT_API_SCOPE",
    description: 'The scope form field, e.g. "profile email" (default: not sent).',
  },
  resource: {
    type: "string",
    valueName: "URI",
    env: "EVENT_API_RESOURCE",
    description:
      "The RFC 8707 resource form field: the API the token is for (e.g. oidc-provider, Entra v1; default: not sent).",
  },
  "token-param": {
    type: "string",
    multiple: true,
    valueName: "NAME=VALUE",
    env: "EVENT_API_TOKEN_PARAMS",
    description:
      "A further form field of every token request, for a server's own parameters (e.g. organization=org_1; the variable: one per line).",
  },
  insecure: {
    type: "boolean",
    env: "EVENT_API_INSECURE",
    description:
      "Do not verify TLS certificates (a throwaway self-signed sandbox only; every report warns). For a company CA use NODE_EXTRA_CA_CERTS.",
  },
  "channel-id": {
    type: "string",
    valueName: "ID",
    env: "EVENT_API_CHANNEL_ID",
    description: "Channel id to post events to (default: generated chl- ids).",
  },
  timeout: {
    type: "string",
    valueName: "SECONDS",
    env: "EVENT_API_TIMEOUT",
    range: RUN_BOUNDS.timeoutSeconds,
    description: "Per-request timeout in seconds (default 10).",
  },
  ...configOptions,
} as const satisfies OptionSpecs);

/** The load command's client list; declared here because a config file's environment may name it too. */
export const credentialsOption = {
  credentials: {
    type: "string",
    valueName: "FILE",
    env: "EVENT_API_CREDENTIALS_FILE",
    description: 'JSON list of {"client_id","client_secret"} (or {"clients":[…]}); VUs spread over them.',
  },
} as const satisfies OptionSpecs;

/** Seconds each request may take when --timeout is not given. */
export const DEFAULT_TIMEOUT_SECONDS = 10;

/** The target options as parsed. */
export type TargetOptionValues = ParsedOptions<typeof targetOptions>;

/** Settings that decide the target but do not name it: they apply to the embedded sandbox too. */
export interface TargetTuning {
  readonly channelId?: string;
  readonly timeoutMs: number;
  readonly clientAuth: ClientAuth;
  readonly scope?: string;
  readonly resource?: string;
  readonly tokenParams?: Readonly<Record<string, string>>;
  readonly connection: Connection;
}

type StringOption = {
  [K in keyof typeof targetOptions]: (typeof targetOptions)[K] extends { readonly multiple: true }
    ? never
    : (typeof targetOptions)[K]["type"] extends "string"
      ? K
      : never;
}[keyof typeof targetOptions];

/** The token request fields the harness sends itself, and the option that sets each. */
const OWNED_TOKEN_PARAMS: Readonly<Record<string, string>> = {
  grant_type: "the harness sends grant_type=client_credentials itself",
  client_id: "use --client-id",
  client_secret: "use EVENT_API_CLIENT_SECRET",
  scope: "use --scope",
  audience: "use --audience",
  resource: "use --resource",
};

/** --token-param NAME=VALUE, repeatable; a value is never repeated in a message, since it may be a secret. */
export function tokenParamsOption(
  given: readonly string[] | undefined,
  env: NodeJS.ProcessEnv,
): Record<string, string> | undefined {
  const values =
    given ?? (env[targetOptions["token-param"].env] ?? "").split("\n").filter((line) => line.trim() !== "");
  if (values.length === 0) return undefined;
  const params: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf("=");
    const name = at > 0 ? value.slice(0, at).trim() : "";
    if (name === "")
      throw new UsageError("invalid-value", "--token-param takes NAME=VALUE (e.g. organization=org_1)");
    const owned = OWNED_TOKEN_PARAMS[name];
    if (owned !== undefined) throw new UsageError("invalid-value", `--token-param ${name}: ${owned}`);
    if (name in params) throw new UsageError("invalid-value", `--token-param ${name} is given twice`);
    params[name] = value.slice(at + 1);
  }
  return params;
}

/** --resource: RFC 8707 §2 wants an absolute URI without a fragment. */
function resourceOption(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (url === undefined || url.hash !== "")
    throw new UsageError(
      "invalid-config",
      `--resource must be an absolute URI without a fragment (RFC 8707 §2), got '${raw}'`,
    );
  return raw;
}

/** A string target option, else its environment variable; blank counts as not given. */
export function pick<N extends StringOption>(
  options: { readonly [K in N]?: string },
  env: NodeJS.ProcessEnv,
  name: N,
): string | undefined {
  const value = options[name] ?? env[targetOptions[name].env];
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

const TRUE_WORDS = new Set(["1", "true", "yes", "on"]);
const FALSE_WORDS = new Set(["", "0", "false", "no", "off"]);

/** --insecure, else EVENT_API_INSECURE (1/true/yes/on or 0/false/no/off). */
export function insecureOption(
  options: Pick<TargetOptionValues, "insecure">,
  env: NodeJS.ProcessEnv,
): boolean {
  if (options.insecure === true) return true;
  const raw = (env[targetOptions.insecure.env] ?? "").trim().toLowerCase();
  if (TRUE_WORDS.has(raw)) return true;
  if (FALSE_WORDS.has(raw)) return false;
  throw new UsageError(
    "invalid-value",
    `${targetOptions.insecure.env} takes 1, true, yes, on or 0, false, no, off, got '${raw}'`,
  );
}

/** An absolute http(s) URL without query or fragment, trailing slashes dropped; else a configuration error. */
export function httpUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError("invalid-config", `--${name} must be an absolute http(s) URL, got '${raw}'`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError("invalid-config", `--${name} must use http or https, got '${raw}'`);
  }
  if (url.search || url.hash)
    throw new UsageError("invalid-config", `--${name} must not carry a query or fragment`);
  return url.toString().replace(/\/+$/, "");
}

/** --timeout, else EVENT_API_TIMEOUT: the one deadline of each request, in ms (default 10 s). */
export function resolveTimeoutMs(
  options: Pick<TargetOptionValues, "timeout">,
  env: NodeJS.ProcessEnv,
): number {
  const seconds = parseNumber("timeout", pick(options, env, "timeout"), {
    ...targetOptions.timeout.range,
    fallback: DEFAULT_TIMEOUT_SECONDS,
  });
  return Math.round(seconds * 1000);
}

/** Reads the tuning options (timeout, channel) that apply whether or not a target is named. */
export function resolveTargetTuning(options: TargetOptionValues, env: NodeJS.ProcessEnv): TargetTuning {
  const timeoutMs = resolveTimeoutMs(options, env);
  const channelId = pick(options, env, "channel-id");
  if (channelId !== undefined && !channelId.startsWith("chl-")) {
    throw new UsageError(
      "invalid-config",
      `--channel-id must start with "chl-" (spec: channel.id), got '${channelId}'`,
    );
  }
  const clientAuth = pick(options, env, "client-auth") ?? "post";
  if (!(CLIENT_AUTH_METHODS as readonly string[]).includes(clientAuth)) {
    throw new UsageError(
      "invalid-value",
      `--client-auth takes one of ${CLIENT_AUTH_METHODS.join(", ")}, got '${clientAuth}'${didYouMean(clientAuth, CLIENT_AUTH_METHODS)}`,
    );
  }
  const scope = pick(options, env, "scope");
  const resource = resourceOption(pick(options, env, "resource"));
  const tokenParams = tokenParamsOption(options["token-param"], env);
  const connection = resolveConnection(options, env);
  return {
    timeoutMs,
    ...(channelId === undefined ? {} : { channelId }),
    clientAuth: clientAuth as ClientAuth,
    ...(scope === undefined ? {} : { scope }),
    ...(resource === undefined ? {} : { resource }),
    ...(tokenParams === undefined ? {} : { tokenParams }),
    connection,
  };
}

/**
 * How requests reach the target: --insecure (EVENT_API_INSECURE), the CA in NODE_EXTRA_CA_CERTS and the proxy
 * variables, checked now so an unreadable CA file or a malformed proxy is a configuration error before anything is sent.
 */
export function resolveConnection(
  options: Pick<TargetOptionValues, "insecure">,
  env: NodeJS.ProcessEnv,
): Connection {
  const connection = connectionFromEnv(env, insecureOption(options, env));
  try {
    trustedCas(connection);
  } catch (error) {
    throw new UsageError("invalid-config", (error as Error).message);
  }
  for (const [name, value] of Object.entries(connection.proxy)) {
    if (name !== "noProxy" && value !== "") proxyUrl(value);
  }
  return connection;
}

/** A proxy address must parse; the message never repeats it, since it may carry a password. */
function proxyUrl(raw: string): void {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new UsageError(
      "invalid-config",
      "HTTPS_PROXY/HTTP_PROXY must be an http:// or https:// URL (e.g. http://proxy.example.com:3128)",
    );
  }
}

/**
 * Resolves the target from options and environment. Returns undefined when none of the naming settings is given
 * (the caller then starts the embedded sandbox); a partial target is a configuration error, never a guess.
 */
export function resolveTarget(options: TargetOptionValues, env: NodeJS.ProcessEnv): Target | undefined {
  const tuning = resolveTargetTuning(options, env);
  const authUrl = pick(options, env, "auth-url");
  const tokenUrl = pick(options, env, "token-url");
  if (authUrl !== undefined && tokenUrl !== undefined) {
    throw new UsageError(
      "invalid-config",
      "give either --auth-url (tokens from {auth-url}/oauth/token) or --token-url (the full token endpoint), not both",
    );
  }
  const named = {
    "auth-url": authUrl ?? tokenUrl,
    "base-url": pick(options, env, "base-url"),
    "client-id": pick(options, env, "client-id"),
    "client-secret": pick(options, env, "client-secret"),
  };
  const given = Object.entries(named).filter(([, value]) => value !== undefined);
  if (given.length === 0) return undefined;
  const missing = Object.entries(named).filter(([, value]) => value === undefined);
  if (missing.length > 0) {
    const names = missing.map(([name]) =>
      name === "auth-url"
        ? "--auth-url (EVENT_API_AUTH_URL) or --token-url (EVENT_API_TOKEN_URL)"
        : `--${name} (${targetOptions[name as keyof typeof named].env})`,
    );
    throw new UsageError("invalid-config", `an external target needs ${names.join(", ")} as well`);
  }
  const baseUrl = httpUrl("base-url", named["base-url"] as string);
  const audience = pick(options, env, "audience") ?? baseUrl;
  return {
    ...(audience === NO_AUDIENCE ? {} : { audience }),
    tokenUrl:
      tokenUrl === undefined
        ? resolveTokenUrl({ authUrl: httpUrl("auth-url", authUrl as string) })
        : resolveTokenUrl({ tokenUrl: httpUrl("token-url", tokenUrl) }),
    baseUrl,
    clientId: named["client-id"] as string,
    clientSecret: new Secret(named["client-secret"] as string),
    ...tuning,
    clientAuthGiven: pick(options, env, "client-auth") !== undefined,
    embedded: false,
  };
}

/** expires_in of an embedded sandbox: short, so sliding-expiry checks and idle gaps take seconds, not 300 s. */
export const EMBEDDED_EXPIRES_IN = 5;

interface SandboxClient {
  readonly clientId: string;
  readonly clientSecret: string;
}

/**
 * The target a started embedded sandbox offers, with the user's tuning (channel, timeout, client authentication,
 * scope), as `client` (default: the
 * sandbox's first client).
 */
export function embeddedTarget(
  sandbox: {
    readonly tokenUrl: string;
    readonly baseUrl: string;
    readonly clients: readonly SandboxClient[];
  },
  tuning: TargetTuning,
  client: SandboxClient | undefined = sandbox.clients[0],
): Target {
  if (client === undefined) throw new Error("the embedded sandbox started without a client");
  return {
    tokenUrl: sandbox.tokenUrl,
    baseUrl: sandbox.baseUrl,
    clientId: client.clientId,
    clientSecret: new Secret(client.clientSecret),
    audience: sandbox.baseUrl,
    ...tuning,
    // The embedded sandbox listens on plain http on loopback: no proxy or CA applies to it.
    connection: DIRECT,
    embedded: true,
  };
}
