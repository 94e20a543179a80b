/** The two variables a VU reads, named apart so a bundle holds two strings, not the table: every VU pays for its objects. */
export const VU_CREDENTIALS_ENV = "EH_CREDENTIALS";
export const VU_SETTINGS_ENV = "EH_VU";

/** The EH_AUDIENCE value that sends no audience form field. */
export const AUDIENCE_NOT_SENT = "none";

/**
 * Environment variables of a run (never command-line flags: those show in `ps`).
 * `readRunConfig` reads the run settings in Node; k6 itself gets only `vu` and `credentials`, because k6 copies
 * every variable into every VU.
 */
export const LOAD_ENV = {
  /** The full token endpoint (the harness resolved {auth_url}/oauth/token or the user's --token-url). */
  tokenUrl: "EH_TOKEN_URL",
  baseUrl: "EH_BASE_URL",
  /** The audience form field; unset: the base URL; AUDIENCE_NOT_SENT: not sent. */
  audience: "EH_AUDIENCE",
  /** post (form fields) or basic (HTTP Basic header). */
  clientAuth: "EH_CLIENT_AUTH",
  /** The scope form field; unset: not sent. */
  scope: "EH_SCOPE",
  /** JSON object of further token request form fields (`resource`, `--token-param`); unset: none. */
  tokenParams: "EH_TOKEN_PARAMS",
  /** "true": k6 skips TLS verification (--insecure). */
  insecure: "EH_INSECURE",
  /** JSON array of `{ "client_id", "client_secret" }`: VUs spread over them. Also passed to k6. */
  credentials: VU_CREDENTIALS_ENV,
  /** A display-safe name of the target (no userinfo), for reports. */
  targetLabel: "EH_TARGET_LABEL",
  runId: "EH_RUN_ID",
  dataFile: "EH_DATA_FILE",
  rate: "EH_RATE",
  durationSeconds: "EH_DURATION_S",
  vus: "EH_VUS",
  /** How many k6 instances (execution segments) share the run; VU counts are checked and split against it. */
  instances: "EH_INSTANCES",
  clientModel: "EH_CLIENT_MODEL",
  expiresMarginSeconds: "EH_EXPIRES_MARGIN_S",
  /** The expires_in the harness saw before the run; idle-gap plans its gaps from it. */
  expiresInSeconds: "EH_EXPIRES_IN_S",
  timeoutSeconds: "EH_TIMEOUT_S",
  /** JSON object `{ metric: [expression, …] }` replacing the defaults for those metrics. */
  thresholds: "EH_THRESHOLDS",
  /** Passed to k6: JSON of the VU settings (`VuSettings`) the harness derived from the others. */
  vu: VU_SETTINGS_ENV,
} as const;

export type LoadEnvKey = keyof typeof LOAD_ENV;

/**
 * Set (to a byte count) only when k6 is the harness's own build, which has the k6/x/harness extension: VUs then
 * cap every response body at that size. A k6 of the user's own lacks the extension, so the variable stays unset.
 */
export const VU_BODY_CAP_ENV = "EH_BODY_CAP";
