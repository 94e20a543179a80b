import { EnvError } from "../../core/index.ts";
import type { CapacityStep } from "./capacity-plan.ts";
import type { ClientModel } from "./client-models.ts";
import { CLIENT_MODELS } from "./client-models.ts";
import type { EnvRecord } from "./env.ts";
import { envReader } from "./env.ts";
import { AUDIENCE_NOT_SENT, LOAD_ENV } from "./env-names.ts";
import { RUN_BOUNDS } from "./run-bounds.ts";
import type { ScenarioName } from "./scenario-catalogue.ts";
import { SCENARIOS } from "./scenario-catalogue.ts";
import { defaultMarginSeconds } from "./token-policy.ts";

/** How a VU authenticates at the token endpoint: form fields (the spec's request) or HTTP Basic. */
export const VU_CLIENT_AUTH = ["post", "basic"] as const;
export type VuClientAuth = (typeof VU_CLIENT_AUTH)[number];

export interface ClientCredential {
  readonly clientId: string;
  readonly clientSecret: string;
}

/** Everything a scenario needs, read once in the init context from the environment the harness set. */
export interface RunConfig {
  readonly scenario: ScenarioName;
  readonly tokenUrl: string;
  readonly baseUrl: string;
  /** The audience form field; undefined: not sent (--audience none). */
  readonly audience: string | undefined;
  readonly clientAuth: VuClientAuth;
  /** Sent as the scope form field when given. */
  readonly scope: string | undefined;
  /** The RFC 8707 resource form field of every token request, when given. */
  readonly resource: string | undefined;
  /** Further form fields of every token request (a server's own parameters); their values may be secret. */
  readonly tokenParams: Readonly<Record<string, string>>;
  /** TLS certificates are not verified (--insecure). */
  readonly insecure: boolean;
  readonly targetLabel: string;
  readonly credentials: readonly ClientCredential[];
  readonly runId: string;
  readonly dataFile: string;
  readonly rate: number;
  readonly durationSeconds: number | undefined;
  readonly vus: number;
  /** k6 instances sharing the run as equal execution segments (1: one k6 process). */
  readonly instances: number;
  readonly clientModel: ClientModel;
  /** expires_in seen by the harness before the run, when known. */
  readonly expiresInSeconds: number | undefined;
  /** How early a client refreshes before expiry, and the tolerance of the 401 classifier. */
  readonly marginSeconds: number;
  readonly timeoutSeconds: number;
  /** Threshold expressions per metric that replace the scenario's defaults. */
  readonly thresholdOverrides: Readonly<Record<string, readonly string[]>>;
  /** A capacity step's shape (its rate is `rate`); unset, capacity plans its first step with the defaults. */
  readonly capacityStep?: CapacityStep | undefined;
}

function readCredentials(raw: unknown): ClientCredential[] {
  if (!Array.isArray(raw) || raw.length === 0) {
    throw new EnvError(
      `${LOAD_ENV.credentials} must be a non-empty JSON array of {client_id, client_secret}`,
    );
  }
  return raw.map((entry, index) => {
    const item = entry as { client_id?: unknown; client_secret?: unknown } | null;
    if (typeof item?.client_id !== "string" || typeof item.client_secret !== "string") {
      throw new EnvError(`${LOAD_ENV.credentials}[${index}] needs string client_id and client_secret`);
    }
    return { clientId: item.client_id, clientSecret: item.client_secret };
  });
}

function readThresholds(raw: unknown): Record<string, string[]> {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new EnvError(`${LOAD_ENV.thresholds} must be a JSON object of metric → [expression, …]`);
  }
  const out: Record<string, string[]> = {};
  for (const [metric, expressions] of Object.entries(raw)) {
    if (!Array.isArray(expressions) || !expressions.every((e) => typeof e === "string")) {
      throw new EnvError(`${LOAD_ENV.thresholds}.${metric} must be a list of expressions`);
    }
    out[metric] = expressions as string[];
  }
  return out;
}

/** Reads and checks the run configuration; throws EnvError naming the variable at fault. */
/** EH_AUDIENCE as sent: AUDIENCE_NOT_SENT sends none. */
function audienceOf(value: string): string | undefined {
  return value === AUDIENCE_NOT_SENT ? undefined : value;
}

export function readRunConfig(env: EnvRecord, scenario: ScenarioName): RunConfig {
  const read = envReader(env);
  const spec = SCENARIOS[scenario];
  const baseUrl = read.string(LOAD_ENV.baseUrl).replace(/\/+$/, "");
  const expiresInSeconds = read.optionalNumber(LOAD_ENV.expiresInSeconds, { min: 1 });
  const instances = read.integer(LOAD_ENV.instances, { ...RUN_BOUNDS.instances, fallback: 1 });
  // Every segment needs a VU, or an instance would run nothing (idle-gap: no gaps); a default grows to fit.
  const vus = read.integer(LOAD_ENV.vus, {
    ...RUN_BOUNDS.vus,
    fallback: Math.max(spec.defaults.vus, instances),
  });
  if (vus < instances) {
    throw new EnvError(
      `${vus} VUs cannot be split over ${instances} instances: every instance needs at least one VU (raise --vus or lower --instances)`,
    );
  }
  const durationSeconds =
    read.optionalNumber(LOAD_ENV.durationSeconds, RUN_BOUNDS.durationSeconds) ??
    spec.defaults.durationSeconds;
  return {
    scenario,
    tokenUrl: read.string(LOAD_ENV.tokenUrl),
    baseUrl,
    audience: audienceOf(read.string(LOAD_ENV.audience, baseUrl)),
    clientAuth: read.choice(LOAD_ENV.clientAuth, VU_CLIENT_AUTH, "post"),
    scope: read.string(LOAD_ENV.scope, "") || undefined,
    resource: read.string(LOAD_ENV.resource, "") || undefined,
    tokenParams: readTokenParams(read.json(LOAD_ENV.tokenParams, {})),
    insecure: read.choice(LOAD_ENV.insecure, ["true", "false"] as const, "false") === "true",
    targetLabel: read.string(LOAD_ENV.targetLabel, baseUrl),
    credentials: readCredentials(read.json(LOAD_ENV.credentials)),
    runId: read.string(LOAD_ENV.runId),
    dataFile: read.string(LOAD_ENV.dataFile),
    rate: read.number(LOAD_ENV.rate, { ...RUN_BOUNDS.rate, fallback: spec.defaults.rate ?? 1 }),
    durationSeconds,
    vus,
    instances,
    clientModel: read.choice(LOAD_ENV.clientModel, CLIENT_MODELS, spec.defaults.clientModel),
    expiresInSeconds,
    marginSeconds: read.number(LOAD_ENV.expiresMarginSeconds, {
      ...RUN_BOUNDS.marginSeconds,
      fallback: defaultMarginSeconds(expiresInSeconds ?? 300),
    }),
    timeoutSeconds: read.number(LOAD_ENV.timeoutSeconds, { ...RUN_BOUNDS.timeoutSeconds, fallback: 10 }),
    thresholdOverrides: readThresholds(read.json(LOAD_ENV.thresholds, {})),
  };
}

/** The further token form fields: an object of strings, the names the harness owns refused in Node already. */
function readTokenParams(value: unknown): Record<string, string> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new EnvError(`${LOAD_ENV.tokenParams} must be a JSON object of strings`);
  const params: Record<string, string> = {};
  for (const [name, field] of Object.entries(value)) {
    if (typeof field !== "string") throw new EnvError(`${LOAD_ENV.tokenParams}: ${name} must be a string`);
    params[name] = field;
  }
  return params;
}
