import { CannotRunError, UsageError } from "../core/index.ts";
import type { DiscoveredServer } from "../transport/discovery/index.ts";
import { DiscoveryError, discoverServer } from "../transport/discovery/index.ts";
import type { ClientAuth, Target } from "../transport/index.ts";
import { describeTokenEndpoint, inertText, tokenEndpointFacts } from "../transport/index.ts";
import type { ParsedOptions } from "./command.ts";
import type { targetOptions } from "./options/target-options.ts";
import { httpUrl, pick, resolveTarget, resolveTargetTuning } from "./options/target-options.ts";

type TargetOptionValues = ParsedOptions<typeof targetOptions>;

/** RFC 8414's names of the two methods the harness speaks. */
const METHOD_NAMES: Readonly<Record<ClientAuth, string>> = {
  post: "client_secret_post",
  basic: "client_secret_basic",
};

/**
 * The client authentication to use with a discovered server: the user's, with a note when the metadata does not list
 * it; else the spec's form fields when listed, else HTTP Basic; a configuration error when it lists neither.
 */
function chooseClientAuth(
  server: DiscoveredServer,
  given: ClientAuth | undefined,
  note: (line: string) => void,
): ClientAuth {
  const listed = (auth: ClientAuth) => server.authMethods.includes(METHOD_NAMES[auth]);
  // The metadata is the server's text: shown, never obeyed.
  const methods = server.authMethods.map(inertText).join(", ") || "none";
  if (given !== undefined) {
    if (!listed(given)) {
      const other: ClientAuth = given === "post" ? "basic" : "post";
      note(
        `the issuer's metadata does not list ${METHOD_NAMES[given]} (--client-auth ${given}) among its token_endpoint_auth_methods_supported (${methods})${listed(other) ? `: --client-auth ${other} is the one it lists` : ""}; sending it as asked`,
      );
    }
    return given;
  }
  if (listed("post")) return "post";
  if (listed("basic")) return "basic";
  throw new UsageError(
    "invalid-config",
    `the issuer's token endpoint takes none of client_secret_post, client_secret_basic, the methods the harness speaks (its metadata lists: ${methods})`,
  );
}

/**
 * A token endpoint over plain http named by an https issuer's metadata is refused: the secret would travel in
 * cleartext where TLS was promised (a server behind a TLS proxy without forwarded headers publishes exactly that).
 */
function refuseDowngrade(issuer: string, tokenEndpoint: string): void {
  if (new URL(issuer).protocol !== "https:" || new URL(tokenEndpoint).protocol === "https:") return;
  const endpoint = new URL(tokenEndpoint).href;
  throw new UsageError(
    "invalid-config",
    `--issuer ${issuer}: its metadata names the token endpoint ${endpoint}, over plain http where the issuer is https: the client secret would travel in cleartext, so nothing was sent. If that endpoint is really the one, name it yourself with --token-url ${endpoint} instead of --issuer`,
  );
}

/**
 * The metadata's introspection endpoint, where the client may authenticate: never plain http under an https issuer
 * (the secret would travel in cleartext), which is then left unused with a note.
 */
export function introspectionOf(
  issuer: string,
  server: DiscoveredServer,
  note: (line: string) => void,
): { introspectionEndpoint?: string } {
  const endpoint = server.introspectionEndpoint;
  if (endpoint === undefined) return {};
  if (new URL(issuer).protocol === "https:" && new URL(endpoint).protocol !== "https:") {
    note(
      `the metadata's introspection_endpoint ${inertText(new URL(endpoint).href)} is plain http where the issuer is https: it is not used`,
    );
    return {};
  }
  return { introspectionEndpoint: endpoint };
}

/**
 * Resolves the target as resolveTarget does, but with --issuer reads the server's metadata first for the token
 * endpoint and the client authentication (one request or two, nothing else sent). Metadata that answers but is not
 * usable is a configuration error, since the harness does not guess a token endpoint; metadata nobody answers for is
 * could-not-test, as an unreachable token endpoint is.
 */
export async function resolveTargetWithIssuer(
  options: TargetOptionValues,
  env: NodeJS.ProcessEnv,
  io: {
    readonly signal: AbortSignal;
    readonly stderr?: NodeJS.WritableStream;
    readonly resolvedTarget?: Target;
  },
): Promise<Target | undefined> {
  // A part of `run` takes the target the run resolved: reading the metadata again may give another endpoint.
  if (io.resolvedTarget !== undefined) return io.resolvedTarget;
  const raw = pick(options, env, "issuer");
  if (raw === undefined) return resolveTarget(options, env);
  if (pick(options, env, "auth-url") !== undefined || pick(options, env, "token-url") !== undefined) {
    throw new UsageError(
      "invalid-config",
      "give either --issuer (the token endpoint from its metadata) or --auth-url/--token-url, not both",
    );
  }
  const issuer = httpUrl("issuer", raw);
  const tuning = resolveTargetTuning(options, env);
  const given = pick(options, env, "client-auth") === undefined ? undefined : tuning.clientAuth;
  let server: DiscoveredServer;
  try {
    server = await discoverServer(issuer, {
      connection: tuning.connection,
      timeoutMs: tuning.timeoutMs,
      signal: io.signal,
    });
  } catch (error) {
    if (!(error instanceof DiscoveryError)) throw error;
    if (!error.reachable) {
      throw new CannotRunError(
        `could not test: could not read the metadata of the issuer ${issuer} (${error.reasons})`,
      );
    }
    throw new UsageError("invalid-config", `--issuer: ${error.message}`);
  }
  refuseDowngrade(issuer, server.tokenEndpoint);
  const note = (line: string) => io.stderr?.write(`event-harness: --issuer: ${line}\n`);
  const clientAuth = chooseClientAuth(server, given, note);
  const { EVENT_API_AUTH_URL: _a, EVENT_API_TOKEN_URL: _t, EVENT_API_ISSUER: _i, ...rest } = env;
  const { issuer: _issuer, ...named } = options;
  const resolved = resolveTarget(
    { ...named, "token-url": server.tokenEndpoint, "client-auth": clientAuth },
    rest,
  );
  if (resolved === undefined) return undefined;
  // A method chosen from the metadata is a default: only the user's own is binding.
  const target: Target = {
    ...resolved,
    issuer,
    clientAuthGiven: given !== undefined,
    ...introspectionOf(issuer, server, note),
  };
  note(
    `${inertText(describeTokenEndpoint(tokenEndpointFacts(target)))}, client authentication ${METHOD_NAMES[clientAuth]} (from ${server.metadataUrl})`,
  );
  return target;
}
