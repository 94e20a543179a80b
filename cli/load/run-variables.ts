import type { ClientCredential } from "../../load/index.ts";
import { AUDIENCE_NOT_SENT, defaultMarginSeconds, LOAD_ENV } from "../../load/index.ts";
import { EMBEDDED_SANDBOX_NOTE } from "../../reporting/index.ts";
import type { Target } from "../../transport/index.ts";
import { describeTokenEndpoint, tokenEndpointFacts } from "../../transport/index.ts";
import { displayUrl } from "./display-url.ts";
import type { LoadSettings } from "./load-settings.ts";

export interface RunVariablesInput {
  readonly settings: LoadSettings;
  readonly target: Target;
  readonly credentials: readonly ClientCredential[];
  readonly runId: string;
  readonly dataFile: string;
  /** Unknown when the manifests are written without asking the target and the user did not say. */
  readonly expiresInSeconds: number | undefined;
}

/** The target as the load reports name it: the API, and the token endpoint when it is on an origin worth naming. */
function targetLabel(target: Target): string {
  if (target.embedded) return `${displayUrl(target.baseUrl)} (${EMBEDDED_SANDBOX_NOTE})`;
  const facts = tokenEndpointFacts(target);
  return facts.tokenEndpointOrigin === undefined
    ? displayUrl(target.baseUrl)
    : `${displayUrl(target.baseUrl)} (${describeTokenEndpoint(facts, displayUrl)})`;
}

/**
 * The run's settings as the EH_* variables `readRunConfig` reads (the benchmark sets the same ones), so the command
 * line and the benchmark share one validation. They stay in Node: k6 gets only what `writeK6Inputs` derives.
 */
export function runVariables(input: RunVariablesInput): Record<string, string> {
  const { settings, target } = input;
  const env: Record<string, string> = {
    [LOAD_ENV.tokenUrl]: target.tokenUrl,
    [LOAD_ENV.baseUrl]: target.baseUrl,
    [LOAD_ENV.audience]: target.audience ?? AUDIENCE_NOT_SENT,
    [LOAD_ENV.clientAuth]: target.clientAuth,
    [LOAD_ENV.insecure]: String(target.connection.insecure),
    [LOAD_ENV.credentials]: JSON.stringify(
      input.credentials.map((c) => ({ client_id: c.clientId, client_secret: c.clientSecret })),
    ),
    [LOAD_ENV.targetLabel]: targetLabel(target),
    [LOAD_ENV.runId]: input.runId,
    [LOAD_ENV.dataFile]: input.dataFile,
    [LOAD_ENV.timeoutSeconds]: String(target.timeoutMs / 1000),
    [LOAD_ENV.thresholds]: JSON.stringify(settings.thresholds),
  };
  const margin =
    settings.marginSeconds ??
    (input.expiresInSeconds === undefined ? undefined : defaultMarginSeconds(input.expiresInSeconds));
  // Unset, the script takes the default of the spec's lifetime (run-config.ts).
  if (margin !== undefined) env[LOAD_ENV.expiresMarginSeconds] = String(margin);
  if (input.expiresInSeconds !== undefined) env[LOAD_ENV.expiresInSeconds] = String(input.expiresInSeconds);
  if (target.scope !== undefined) env[LOAD_ENV.scope] = target.scope;
  const tokenParams = {
    ...(target.resource === undefined ? {} : { resource: target.resource }),
    ...target.tokenParams,
  };
  if (Object.keys(tokenParams).length > 0) env[LOAD_ENV.tokenParams] = JSON.stringify(tokenParams);
  if (settings.rate !== undefined) env[LOAD_ENV.rate] = String(settings.rate);
  if (settings.durationSeconds !== undefined)
    env[LOAD_ENV.durationSeconds] = String(settings.durationSeconds);
  if (settings.vus !== undefined) env[LOAD_ENV.vus] = String(settings.vus);
  if (settings.instances > 1) env[LOAD_ENV.instances] = String(settings.instances);
  if (settings.clientModel !== undefined) env[LOAD_ENV.clientModel] = settings.clientModel;
  return env;
}
