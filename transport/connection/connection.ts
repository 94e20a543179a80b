/** The proxies the user's environment names, read once by the CLI (empty string: none). */
export interface ProxySettings {
  readonly httpProxy: string;
  readonly httpsProxy: string;
  readonly noProxy: string;
}

/** How every request reaches the target: which CA to trust, whether to verify TLS at all, which proxy to use. */
export interface Connection {
  /** Skip TLS certificate verification (--insecure): only for a throwaway self-signed sandbox. */
  readonly insecure: boolean;
  /** A PEM file of extra CA certificates, trusted besides the usual roots (NODE_EXTRA_CA_CERTS). */
  readonly caFile?: string;
  readonly proxy: ProxySettings;
}

const NO_PROXY_SETTINGS: ProxySettings = Object.freeze({ httpProxy: "", httpsProxy: "", noProxy: "" });

/** Every report of a run made with --insecure carries this warning. */
export const INSECURE_WARNING =
  "TLS certificates were not verified (--insecure): this run says nothing about the target's certificates, and a man in the middle could have answered.";

/** Straight to the target with the usual roots: the embedded sandbox and tests. */
export const DIRECT: Connection = Object.freeze({ insecure: false, proxy: NO_PROXY_SETTINGS });

const read = (env: NodeJS.ProcessEnv, name: string): string =>
  (env[name.toLowerCase()] ?? env[name.toUpperCase()] ?? "").trim();

/** The connection the environment asks for, with curl's and undici's precedence (lower-case names first). */
export function connectionFromEnv(env: NodeJS.ProcessEnv, insecure: boolean): Connection {
  const caFile = env.NODE_EXTRA_CA_CERTS?.trim();
  return {
    insecure,
    ...(caFile ? { caFile } : {}),
    proxy: {
      httpProxy: read(env, "http_proxy"),
      httpsProxy: read(env, "https_proxy"),
      noProxy: read(env, "no_proxy"),
    },
  };
}
