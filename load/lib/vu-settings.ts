import type { ClientModel } from "./client-models.ts";
import type { IdleGapPlan } from "./idle-gap-plan.ts";
import type { RunConfig, VuClientAuth } from "./run-config.ts";
import type { ScenarioPlan } from "./scenario-plan.ts";

/**
 * Everything a VU needs, resolved and checked by the harness in Node and handed to k6 as one JSON variable
 * (LOAD_ENV.vu): VUs parse it once instead of carrying the validation code. Holds no secret (credentials travel
 * apart, in LOAD_ENV.credentials).
 */
export interface VuSettings {
  readonly tokenUrl: string;
  readonly clientAuth: VuClientAuth;
  /** Sent as the scope form field when given. */
  readonly scope?: string;
  /** Further form fields of every token request (RFC 8707 resource, a server's own parameters). */
  readonly tokenParams?: Readonly<Record<string, string>>;
  readonly eventsUrl: string;
  /** Not sent when undefined (--audience none). */
  readonly audience?: string;
  readonly runId: string;
  readonly dataFile: string;
  /** Where handleSummary writes k6's end-of-test data; the harness renders the reports from it. */
  readonly summaryFile: string;
  readonly clientModel: ClientModel;
  /** How early the client refreshes, and the tolerance of the 401 classifier. */
  readonly marginMs: number;
  readonly timeoutMs: number;
  /** The idle-gap schedule (idle-gap only). */
  readonly idleGap?: IdleGapPlan;
}

/** The VU settings of a run; `summaryFile` is where k6 writes its end-of-test data. */
export function vuSettings(config: RunConfig, plan: ScenarioPlan, summaryFile: string): VuSettings {
  return {
    tokenUrl: config.tokenUrl,
    clientAuth: config.clientAuth,
    ...(config.scope === undefined ? {} : { scope: config.scope }),
    ...(Object.keys(config.tokenParams).length === 0 ? {} : { tokenParams: config.tokenParams }),
    eventsUrl: `${config.baseUrl}/events`,
    ...(config.audience === undefined ? {} : { audience: config.audience }),
    runId: config.runId,
    dataFile: config.dataFile,
    summaryFile,
    clientModel: config.clientModel,
    marginMs: config.marginSeconds * 1000,
    timeoutMs: config.timeoutSeconds * 1000,
    ...(plan.idleGap === undefined ? {} : { idleGap: plan.idleGap }),
  };
}
