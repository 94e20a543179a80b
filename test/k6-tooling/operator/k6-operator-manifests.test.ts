import { describe, expect, it } from "vitest";
import {
  configMapManifest,
  operatorNames,
  resultsClaimManifest,
  testRunManifest,
} from "../../../k6-tooling/operator/k6-operator-manifests.ts";
import { LOAD_ENV } from "../../../load/index.ts";

/** A Kubernetes object name that must be a DNS label (RFC 1123): Services, and what the TestRun names its jobs. */
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

describe("operatorNames", () => {
  it("derives every name from the run id, as DNS labels", () => {
    expect(operatorNames("run-1")).toEqual({
      testRun: "eh-run-1",
      configMap: "eh-run-1-script",
      secret: "eh-run-1-credentials",
      claim: "eh-run-1-results",
    });
  });

  it("lower-cases a run id and turns what a label cannot hold into single hyphens", () => {
    expect(operatorNames("Nightly_2026.11/Prod ü").testRun).toBe("eh-nightly-2026-11-prod");
  });

  it("keeps names within 63 characters and never ends one on a hyphen", () => {
    for (const runId of ["x".repeat(200), `${"a".repeat(46)}----bbbb`, "a_".repeat(40), "---"]) {
      const names = operatorNames(runId);
      for (const name of Object.values(names)) {
        expect(name.length, name).toBeLessThanOrEqual(63);
        expect(name, name).toMatch(DNS_LABEL);
      }
    }
    expect(operatorNames(`${"a".repeat(46)}----bbbb`).testRun).toBe(`eh-${"a".repeat(46)}`);
  });
});

describe("testRunManifest", () => {
  const names = operatorNames("run-1");
  const base = {
    names,
    parallelism: 4,
    vuSettingsJson: '{"dataFile":"/x"}',
    tokenParams: false,
    runnerImage: "grafana/k6:2.2.0",
    script: "configMap",
  } as const;

  type Env = Array<{ name: string; value?: string; valueFrom?: unknown }>;
  const runnerOf = (manifest: Record<string, unknown>) =>
    (manifest.spec as { runner: { env: Env; volumeMounts: unknown[]; image: string } }).runner;

  it("runs the archive from the ConfigMap on `parallelism` runners, credentials from the Secret", () => {
    const manifest = testRunManifest(base);
    expect(manifest).toMatchObject({
      apiVersion: "k6.io/v1alpha1",
      kind: "TestRun",
      metadata: { name: "eh-run-1" },
      spec: { parallelism: 4, script: { configMap: { name: "eh-run-1-script", file: "archive.tar" } } },
    });
    const runner = runnerOf(manifest);
    expect(runner.image).toBe("grafana/k6:2.2.0");
    expect(runner.env).toEqual([
      { name: "POD_NAME", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } },
      { name: LOAD_ENV.vu, value: '{"dataFile":"/x"}' },
      {
        name: LOAD_ENV.credentials,
        valueFrom: { secretKeyRef: { name: "eh-run-1-credentials", key: "credentials.json" } },
      },
    ]);
    // Each pod writes under its own name on the shared claim.
    expect(runner.volumeMounts).toEqual([
      { name: "results", mountPath: "/results", subPathExpr: "$(POD_NAME)" },
    ]);
    expect((manifest.spec as { arguments: string }).arguments).toBe(
      "--out csv=fileName=/results/samples.csv.gz,timeFormat=unix_milli --no-color",
    );
  });

  it("takes the token parameters from the same Secret, and reads a large archive from the claim", () => {
    const manifest = testRunManifest({ ...base, tokenParams: true, script: "volumeClaim" });
    expect(runnerOf(manifest).env.at(-1)).toEqual({
      name: LOAD_ENV.tokenParams,
      valueFrom: { secretKeyRef: { name: "eh-run-1-credentials", key: "token-params.json" } },
    });
    expect((manifest.spec as { script: unknown }).script).toEqual({
      volumeClaim: { name: "eh-run-1-results", file: "archive.tar", readOnly: false },
    });
  });
});

describe("configMapManifest and resultsClaimManifest", () => {
  it("carries the archive's bytes as base64 binary data", () => {
    const archive = Buffer.from([0, 255, 1, 254, 0x7f, 10]);
    const manifest = configMapManifest(operatorNames("r"), archive);
    expect(manifest).toMatchObject({ kind: "ConfigMap", metadata: { name: "eh-r-script" } });
    const data = (manifest.binaryData as Record<string, string>)["archive.tar"];
    expect(Buffer.from(data ?? "", "base64").equals(archive)).toBe(true);
  });

  it("claims shared storage every node can write, 1Gi unless told", () => {
    expect(resultsClaimManifest(operatorNames("r"))).toEqual({
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: { name: "eh-r-results", labels: { "app.kubernetes.io/managed-by": "event-harness" } },
      spec: { accessModes: ["ReadWriteMany"], resources: { requests: { storage: "1Gi" } } },
    });
    expect(resultsClaimManifest(operatorNames("r"), "20Gi")).toMatchObject({
      spec: { resources: { requests: { storage: "20Gi" } } },
    });
  });
});
