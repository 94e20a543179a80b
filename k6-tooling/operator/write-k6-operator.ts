import { spawn } from "node:child_process";
import { copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { CannotRunError } from "../../core/index.ts";
import type { RunConfig, ScenarioPlan } from "../../load/index.ts";
import { LOAD_ENV, loadOptions, vuSettings } from "../../load/index.ts";
import type { K6Binary } from "../binary/k6-binary.ts";
import { k6Environment } from "../run/k6-environment.ts";
import {
  ARCHIVE_FILE,
  CONFIG_MAP_LIMIT_BYTES,
  CREDENTIALS_KEY,
  configMapManifest,
  operatorNames,
  RESULTS_MOUNT,
  resultsClaimManifest,
  SAMPLES_FILE,
  SUMMARY_FILE,
  TOKEN_PARAMS_KEY,
  testRunManifest,
} from "./k6-operator-manifests.ts";

/** What load-merge needs besides the runners' outputs: the run's report context (no secret). */
export const PLAN_FILE = "plan.json";
export const PLAN_FORMAT = "event-harness.k6-operator-plan.v1";

/** `Context` is the caller's report context: k6-tooling stores it for load-merge and never reads it. */
export interface OperatorPlanFile<Context = unknown> {
  readonly format: typeof PLAN_FORMAT;
  readonly context: Context;
  readonly parallelism: number;
}

export interface WriteOperatorInput<Context> {
  readonly dir: string;
  readonly k6: K6Binary;
  readonly bundle: string;
  readonly dataFile: string;
  readonly config: RunConfig;
  readonly plan: ScenarioPlan;
  readonly context: Context;
  readonly parentEnv: NodeJS.ProcessEnv;
  /** Stops `k6 archive` on Ctrl+C or SIGTERM. */
  readonly signal: AbortSignal;
}

export interface WrittenOperator {
  readonly files: readonly string[];
  readonly archiveBytes: number;
  readonly inConfigMap: boolean;
}

/** Runs `k6 archive`: the bundle, the options and every file opened in the init context (the event data). */
async function k6Archive(
  k6: K6Binary,
  args: readonly string[],
  env: Record<string, string>,
  signal: AbortSignal,
): Promise<void> {
  if (signal.aborted) throw new CannotRunError("interrupted before k6 archive ran");
  const child = spawn(k6.path, ["archive", ...args], { env, stdio: ["ignore", "pipe", "pipe"], signal });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout?.resume();
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", (error) =>
      reject(signal.aborted ? new CannotRunError("k6 archive was interrupted") : error),
    );
    child.once("close", resolve);
  });
  if (signal.aborted) throw new CannotRunError("k6 archive was interrupted");
  if (code !== 0) throw new CannotRunError(`k6 archive failed (exit ${code}): ${stderr.trim()}`);
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/**
 * `load --k6-operator DIR`: writes what a team applies to its cluster. The archive is built with placeholder
 * credentials and token parameter values (k6 runs the init context to build it), so no secret can be inside; the
 * runners get the real ones from a Kubernetes Secret the team creates, referenced by env. The VU settings name the
 * token parameters only.
 */
export async function writeK6Operator<Context>(input: WriteOperatorInput<Context>): Promise<WrittenOperator> {
  const { dir, config, plan } = input;
  const names = operatorNames(config.runId);
  // DIR was proven writable before (prepareWritableDir): one level below it, a plain mkdir cannot spin.
  await mkdir(path.join(dir, "manifests")).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "EEXIST") throw error;
  });
  // The data file is archived under its absolute path, which the VU settings name; keep it inside DIR.
  const dataFile = path.resolve(dir, "event-templates.json");
  if (path.resolve(input.dataFile) !== dataFile) await copyFile(input.dataFile, dataFile);
  const settings = vuSettings({ ...config, dataFile }, plan, `${RESULTS_MOUNT}/${SUMMARY_FILE}`);
  const settingsJson = JSON.stringify(settings);
  const tokenParamNames = settings.tokenParamNames ?? [];
  // Blank values under the real names, so the VUs' check of the names passes while k6 archive runs the init context.
  const tokenParamBlanks = Object.fromEntries(tokenParamNames.map((name) => [name, ""]));
  const optionsFile = path.join(dir, "k6-options.json");
  await writeFile(optionsFile, json(loadOptions(config, plan)));
  const archiveFile = path.join(dir, ARCHIVE_FILE);
  // k6 archive sees only -e variables and stores them in the archive; a pod's own env overrides them at run time.
  await k6Archive(
    input.k6,
    [
      "--quiet",
      "--config",
      optionsFile,
      "--archive-out",
      archiveFile,
      "-e",
      `${LOAD_ENV.vu}=${settingsJson}`,
      "-e",
      `${LOAD_ENV.credentials}=[]`,
      ...(tokenParamNames.length === 0
        ? []
        : ["-e", `${LOAD_ENV.tokenParams}=${JSON.stringify(tokenParamBlanks)}`]),
      input.bundle,
    ],
    k6Environment(input.parentEnv, {}),
    input.signal,
  );
  const archive = await readFile(archiveFile);
  const inConfigMap = archive.length <= CONFIG_MAP_LIMIT_BYTES;
  const manifests: Array<[string, Record<string, unknown>]> = [
    ["results-claim.json", resultsClaimManifest(names)],
    [
      "testrun.json",
      testRunManifest({
        names,
        parallelism: config.instances,
        vuSettingsJson: settingsJson,
        tokenParams: tokenParamNames.length > 0,
        runnerImage: `grafana/k6:${input.k6.version.replace(/^v/, "")}`,
        script: inConfigMap ? "configMap" : "volumeClaim",
      }),
    ],
  ];
  await rm(path.join(dir, "manifests", "configmap.json"), { force: true });
  if (inConfigMap) manifests.unshift(["configmap.json", configMapManifest(names, archive)]);
  for (const [name, manifest] of manifests)
    await writeFile(path.join(dir, "manifests", name), json(manifest));
  const planFile: OperatorPlanFile<Context> = {
    format: PLAN_FORMAT,
    context: input.context,
    parallelism: config.instances,
  };
  await writeFile(path.join(dir, PLAN_FILE), json(planFile));
  await writeFile(
    path.join(dir, "README.md"),
    operatorReadme(names, config, tokenParamNames, archive.length, inConfigMap),
  );
  return {
    files: [
      ARCHIVE_FILE,
      "event-templates.json",
      "k6-options.json",
      PLAN_FILE,
      "README.md",
      ...manifests.map(([name]) => `manifests/${name}`),
    ],
    archiveBytes: archive.length,
    inConfigMap,
  };
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
}

function operatorReadme(
  names: ReturnType<typeof operatorNames>,
  config: RunConfig,
  tokenParamNames: readonly string[],
  archiveBytes: number,
  inConfigMap: boolean,
): string {
  // Names only, as JSON in a code block (the user's own text, inert there): the values are for the Secret alone.
  const tokenParamsStep =
    tokenParamNames.length === 0
      ? ""
      : [
          " and the token",
          "   parameters' values, a JSON object of strings, as a second key of the same Secret (the runners do not start",
          "   without it):",
          "",
          `       kubectl create secret generic ${names.secret} --from-file=${CREDENTIALS_KEY}=PATH/TO/credentials.json \\`,
          `         --from-file=${TOKEN_PARAMS_KEY}=PATH/TO/token-params.json`,
          "",
          "   token-params.json holds exactly these names, each with its value:",
          "",
          `       ${JSON.stringify(Object.fromEntries(tokenParamNames.map((name) => [name, "…"])))}`,
        ].join("\n");
  const scriptStep = inConfigMap
    ? `The archive (${mib(archiveBytes)}) is inside \`manifests/configmap.json\`.`
    : [
        `The archive is ${mib(archiveBytes)}, over a ConfigMap's 1 MiB limit, so there is no ConfigMap: the TestRun`,
        `reads \`${ARCHIVE_FILE}\` from the claim \`${names.claim}\`. Copy it there first (step 3), or shrink it`,
        "(the event data is most of it).",
      ].join("\n");
  return `# k6-operator run \`${names.testRun}\` (${config.scenario}, ${config.instances} runners)

Generated by \`event-harness load ${config.scenario} --k6-operator\`. Nothing here holds a secret.
${scriptStep}

1. Create the Secret with the client credentials, a JSON array of \`{"client_id","client_secret"}\`${
    tokenParamNames.length === 0
      ? `:

       kubectl create secret generic ${names.secret} --from-file=${CREDENTIALS_KEY}=PATH/TO/credentials.json`
      : `,${tokenParamsStep}`
  }

2. Create the results claim (ReadWriteMany; each runner writes to its own \`<pod name>/\` directory on it):

       kubectl apply -f manifests/results-claim.json
${inConfigMap ? "" : `\n3. Copy \`${ARCHIVE_FILE}\` to the root of the claim \`${names.claim}\` (e.g. with a helper pod and \`kubectl cp\`).\n`}
${inConfigMap ? "3" : "4"}. Start the test (k6-operator must be installed in the cluster):

       kubectl apply -f manifests/

${inConfigMap ? "4" : "5"}. When the TestRun's stage is \`finished\` (\`kubectl get testrun ${names.testRun}\`), copy every runner's directory
   (\`<pod name>/${SUMMARY_FILE}\` and \`<pod name>/${SAMPLES_FILE}\`) from the claim into \`results/\` here, then merge:

       event-harness load-merge results/*/ --plan ${PLAN_FILE}

   Each runner judges its own segment only; the verdict is load-merge's, on the merged data.

The runners reach the target from inside the cluster: a company CA must be in the runner image's trust store (or
mounted and named by \`SSL_CERT_DIR\` in the TestRun's \`runner.env\`), and a proxy is set there as \`HTTPS_PROXY\` /
\`NO_PROXY\`; the local \`NODE_EXTRA_CA_CERTS\` and proxy variables are not carried over.${config.insecure ? "\nTLS certificates are **not verified** (--insecure): for a throwaway self-signed sandbox only." : ""}
`;
}
