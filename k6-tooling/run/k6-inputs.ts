import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { RunConfig, ScenarioPlan } from "../../load/index.ts";
import { LOAD_ENV, loadOptions, vuSettings } from "../../load/index.ts";

/** What k6 is given for one run, besides the bundle. */
export interface K6Inputs {
  /** The k6 options (executor, thresholds, memory-friendly settings) as a `--config` file: VUs build none. */
  readonly configFile: string;
  /** Where the script's handleSummary writes k6's end-of-test data. */
  readonly summaryFile: string;
  /** The only variables VUs read: their settings, and the secrets apart: credentials and token parameters' values. */
  readonly env: Readonly<Record<string, string>>;
}

/** The k6 arguments that apply the inputs. */
export function k6InputArgs(inputs: K6Inputs): string[] {
  return ["--config", inputs.configFile];
}

/** Writes `k6-options.json` into `dir` and returns what a k6 run of `config` needs. */
export async function writeK6Inputs(config: RunConfig, plan: ScenarioPlan, dir: string): Promise<K6Inputs> {
  const configFile = path.join(dir, "k6-options.json");
  const summaryFile = path.join(dir, "summary.json");
  await writeFile(configFile, `${JSON.stringify(loadOptions(config, plan), null, 2)}\n`);
  return {
    configFile,
    summaryFile,
    env: {
      [LOAD_ENV.vu]: JSON.stringify(vuSettings(config, plan, summaryFile)),
      [LOAD_ENV.credentials]: JSON.stringify(
        config.credentials.map((c) => ({ client_id: c.clientId, client_secret: c.clientSecret })),
      ),
      ...(Object.keys(config.tokenParams).length === 0
        ? {}
        : { [LOAD_ENV.tokenParams]: JSON.stringify(config.tokenParams) }),
    },
  };
}
