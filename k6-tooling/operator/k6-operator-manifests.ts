import { LOAD_ENV } from "../../load/index.ts";

/** A ConfigMap holds at most 1 MiB (Kubernetes' limit on the object's data). */
export const CONFIG_MAP_LIMIT_BYTES = 1024 * 1024;
/** Where each runner pod writes its summary and samples: its own subdirectory of the results volume. */
export const RESULTS_MOUNT = "/results";
export const ARCHIVE_FILE = "archive.tar";
export const CREDENTIALS_KEY = "credentials.json";
/** The Secret's key holding the token parameters' values, a JSON object of `--token-param` name → value. */
export const TOKEN_PARAMS_KEY = "token-params.json";
export const SUMMARY_FILE = "summary.json";
export const SAMPLES_FILE = "samples.csv.gz";

export interface OperatorNames {
  /** The TestRun's name; ConfigMap, Secret and claim names derive from it. */
  readonly testRun: string;
  readonly configMap: string;
  readonly secret: string;
  readonly claim: string;
}

/** Kubernetes names: lower-case DNS labels, at most 63 characters. */
export function operatorNames(runId: string): OperatorNames {
  const base = `eh-${runId}`
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .slice(0, 50)
    .replace(/-+$/, "");
  return {
    testRun: base,
    configMap: `${base}-script`,
    secret: `${base}-credentials`,
    claim: `${base}-results`,
  };
}

export interface TestRunInput {
  readonly names: OperatorNames;
  readonly parallelism: number;
  /** The VU settings JSON (no secret), as LOAD_ENV.vu. */
  readonly vuSettingsJson: string;
  /** Whether the run has token parameters, whose values come from the Secret too. */
  readonly tokenParams: boolean;
  readonly runnerImage: string;
  /** Where the archive comes from: the ConfigMap, or (too large for one) a volume the team fills. */
  readonly script: "configMap" | "volumeClaim";
}

/**
 * The k6-operator TestRun (k6.io/v1alpha1): `parallelism` runners, each on its execution segment (the operator adds
 * the segment flags), the archive as the script, the credentials and token parameters from a Secret via env, and a per-pod results
 * directory on a shared claim (subPathExpr from the pod name) where k6 writes its summary and CSV samples.
 */
export function testRunManifest(input: TestRunInput): Record<string, unknown> {
  const { names } = input;
  return {
    apiVersion: "k6.io/v1alpha1",
    kind: "TestRun",
    metadata: { name: names.testRun, labels: { "app.kubernetes.io/managed-by": "event-harness" } },
    spec: {
      parallelism: input.parallelism,
      separate: false,
      script:
        input.script === "configMap"
          ? { configMap: { name: names.configMap, file: ARCHIVE_FILE } }
          : { volumeClaim: { name: names.claim, file: ARCHIVE_FILE, readOnly: false } },
      arguments: `--out csv=fileName=${RESULTS_MOUNT}/${SAMPLES_FILE},timeFormat=unix_milli --no-color`,
      runner: {
        image: input.runnerImage,
        env: [
          { name: "POD_NAME", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } },
          { name: LOAD_ENV.vu, value: input.vuSettingsJson },
          {
            name: LOAD_ENV.credentials,
            valueFrom: { secretKeyRef: { name: names.secret, key: CREDENTIALS_KEY } },
          },
          // Not optional: a pod whose Secret lacks the key does not start, so it never runs with the archive's blanks.
          ...(input.tokenParams
            ? [
                {
                  name: LOAD_ENV.tokenParams,
                  valueFrom: { secretKeyRef: { name: names.secret, key: TOKEN_PARAMS_KEY } },
                },
              ]
            : []),
        ],
        volumes: [{ name: "results", persistentVolumeClaim: { claimName: names.claim } }],
        volumeMounts: [{ name: "results", mountPath: RESULTS_MOUNT, subPathExpr: "$(POD_NAME)" }],
      },
    },
  };
}

/** The ConfigMap carrying the archive (binary data, base64 in the manifest). */
export function configMapManifest(names: OperatorNames, archive: Buffer): Record<string, unknown> {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: names.configMap, labels: { "app.kubernetes.io/managed-by": "event-harness" } },
    binaryData: { [ARCHIVE_FILE]: archive.toString("base64") },
  };
}

/** The claim every runner writes its results to (ReadWriteMany: the pods may run on different nodes). */
export function resultsClaimManifest(names: OperatorNames, storage = "1Gi"): Record<string, unknown> {
  return {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name: names.claim, labels: { "app.kubernetes.io/managed-by": "event-harness" } },
    spec: { accessModes: ["ReadWriteMany"], resources: { requests: { storage } } },
  };
}
