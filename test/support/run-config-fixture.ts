import type { RunConfig, ScenarioName } from "../../load/index.ts";
import { SCENARIOS } from "../../load/index.ts";
import type { ReportContext } from "../../reporting/load/index.ts";

/** A complete run configuration for unit tests, with the scenario's defaults. */
export function runConfig(scenario: ScenarioName, overrides: Partial<RunConfig> = {}): RunConfig {
  const spec = SCENARIOS[scenario];
  return {
    scenario,
    tokenUrl: "http://127.0.0.1:1/auth/oauth/token",
    baseUrl: "http://127.0.0.1:1/api",
    audience: "http://127.0.0.1:1/api",
    clientAuth: "post",
    scope: undefined,
    resource: undefined,
    tokenParams: {},
    insecure: false,
    targetLabel: "http://127.0.0.1:1/api",
    credentials: [{ clientId: "client", clientSecret: "fixture-secret" }],
    runId: "run-1",
    dataFile: "/tmp/event-templates.json",
    rate: spec.defaults.rate ?? 1,
    durationSeconds: spec.defaults.durationSeconds,
    vus: spec.defaults.vus,
    instances: 1,
    clientModel: spec.defaults.clientModel,
    expiresInSeconds: 300,
    marginSeconds: 30,
    timeoutSeconds: 10,
    thresholdOverrides: {},
    ...overrides,
  };
}

/** The report context of a short sustained run with a 2 s expires_in, as the report renderers receive it. */
export const sustainedReportContext: ReportContext = {
  scenario: "sustained",
  runId: "sustained-run",
  targetLabel: "http://127.0.0.1:1/api",
  clientModel: "sliding",
  rate: 20,
  durationSeconds: 10,
  vus: 5,
  expiresInSeconds: 2,
  marginSeconds: 0.2,
  plannedIterations: 200,
  warmUpSeconds: 2,
  idleGap: undefined,
  warnings: [],
};
