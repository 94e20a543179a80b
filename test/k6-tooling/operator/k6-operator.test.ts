import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import { beforeAll } from "vitest";
import { loadCommand } from "../../../cli/commands/load.ts";
import { loadMergeCommand } from "../../../cli/commands/load-merge.ts";
import type { K6Binary } from "../../../k6-tooling/binary/k6-binary.ts";
import { ensureK6 } from "../../../k6-tooling/binary/k6-binary.ts";
import { operatorNames, testRunManifest } from "../../../k6-tooling/operator/k6-operator-manifests.ts";
import { LOAD_ENV, METRIC } from "../../../load/index.ts";
import { startSandbox } from "../../../sandbox/index.ts";
import { it as base, describe, expect } from "../../support/fixtures.ts";
import { runInProcess } from "../../support/run-in-process.ts";

/** The vendored TestRun schema (see its $comment for the source and what was kept). */
const SCHEMA_FILE = fileURLToPath(new URL("./fixtures/k6-operator/testrun-crd-schema.json", import.meta.url));

/** Kubernetes rejects unknown fields under strict validation: JSON Schema needs that said on every object. */
function strict(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strict);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] =
      key === "properties"
        ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, strict(v)]))
        : strict(value);
  }
  if ("properties" in out && out.type === "object") out.additionalProperties = false;
  return out;
}

async function testRunValidator() {
  const raw = JSON.parse(await readFile(SCHEMA_FILE, "utf8")) as Record<string, unknown>;
  const { $comment: _comment, "x-source": _source, ...schema } = raw;
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false });
  ajv.addVocabulary(["x-kubernetes-map-type", "x-kubernetes-int-or-string", "x-kubernetes-list-type"]);
  ajv.addFormat("int32", {
    type: "number",
    validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31,
  });
  return ajv.compile(strict(schema) as object);
}

let k6: K6Binary;
const SECRET = `operator-secret-${randomBytes(8).toString("hex")}`;

beforeAll(async () => {
  k6 = await ensureK6({ env: process.env, stderr: process.stderr });
}, 600_000);

/** The target the cluster would load: a sandbox with the one client the manifests name, closed after the test. */
// biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
const it = base.extend("target", async ({}, { onCleanup }) => {
  const sandbox = await startSandbox({
    port: 0,
    expiresIn: 5,
    clients: [{ clientId: "operator-test", clientSecret: SECRET }],
  });
  onCleanup(() => sandbox.close());
  return sandbox;
});

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full)));
    else out.push(full);
  }
  return out;
}

function runK6(args: readonly string[], env: Record<string, string>): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(k6.path, args, { env: { PATH: process.env.PATH ?? "", ...env }, stdio: "ignore" });
    child.once("error", reject);
    child.once("close", resolve);
  });
}

describe("TestRun manifests against the k6-operator CRD schema", () => {
  it("accepts both script sources, and refuses what a cluster would refuse", async () => {
    const validate = await testRunValidator();
    const names = operatorNames("sustained-20261122-abcd");
    for (const script of ["configMap", "volumeClaim"] as const) {
      for (const tokenParams of [false, true]) {
        const manifest = testRunManifest({
          names,
          parallelism: 4,
          vuSettingsJson: "{}",
          tokenParams,
          runnerImage: "grafana/k6:2.2.0",
          script,
        });
        expect(validate(manifest), JSON.stringify(validate.errors)).toBe(true);
      }
    }
    const good = testRunManifest({
      names,
      parallelism: 2,
      vuSettingsJson: "{}",
      tokenParams: false,
      runnerImage: "k6",
      script: "configMap",
    });
    const spec = good.spec as Record<string, unknown>;
    expect(validate({ ...good, spec: { ...spec, parallelism: "2" } })).toBe(false);
    expect(validate({ ...good, spec: { ...spec, paralellism: 2 } })).toBe(false);
    const { script: _script, ...noScript } = spec;
    expect(validate({ ...good, spec: noScript })).toBe(false);
    expect(
      validate({ ...good, spec: { ...spec, runner: { ...(spec.runner as object), env: [{ value: "x" }] } } }),
    ).toBe(false);
  });
});

describe("load --k6-operator and load-merge", () => {
  it("writes an archive, ConfigMap and TestRun with no secret in them; runners on its segments merge into one verdict", async ({
    tmpDir: workDir,
    target: sandbox,
  }) => {
    const dir = path.join(workDir, "operator");
    const target = [
      "--auth-url",
      sandbox.authUrl,
      "--base-url",
      sandbox.baseUrl,
      "--client-id",
      "operator-test",
    ];
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      EVENT_API_CLIENT_SECRET: SECRET,
      ...(process.env.K6_BIN ? { K6_BIN: process.env.K6_BIN } : {}),
    };
    const made = await runInProcess(
      loadCommand,
      ["sustained", "--instances", "3", "--rate", "30", "--duration", "3s", "--k6-operator", dir, ...target],
      env,
    );
    expect(made.stderr).not.toContain("Error");
    expect(made.code).toBe(0);
    for (const output of [made.stdout, made.stderr]) expect(output).not.toContain(SECRET);

    const files = await filesUnder(dir);
    expect(files.map((f) => path.relative(dir, f)).sort()).toEqual(
      [
        // The claim that makes the folder this run's alone.
        ".event-harness-run",
        "README.md",
        "archive.tar",
        "event-templates.json",
        "k6-options.json",
        "manifests/configmap.json",
        "manifests/results-claim.json",
        "manifests/testrun.json",
        "plan.json",
      ].sort(),
    );
    // No secret in any file it wrote, the archive's bytes and the ConfigMap's decoded archive included.
    for (const file of files) expect((await readFile(file)).includes(SECRET)).toBe(false);
    const configMap = JSON.parse(await readFile(path.join(dir, "manifests/configmap.json"), "utf8"));
    const archive = Buffer.from(configMap.binaryData["archive.tar"], "base64");
    expect(archive.equals(await readFile(path.join(dir, "archive.tar")))).toBe(true);
    expect(archive.includes(SECRET)).toBe(false);
    expect(archive.length).toBeLessThan(1024 * 1024);
    // The generated event data travels inside the archive.
    const templates = await readFile(path.join(dir, "event-templates.json"));
    expect(archive.includes(templates.subarray(0, 200))).toBe(true);

    const testRun = JSON.parse(await readFile(path.join(dir, "manifests/testrun.json"), "utf8"));
    const validate = await testRunValidator();
    expect(validate(testRun), JSON.stringify(validate.errors)).toBe(true);
    expect(testRun.spec.parallelism).toBe(3);
    const credentials = testRun.spec.runner.env.find(
      (e: { name: string }) => e.name === LOAD_ENV.credentials,
    );
    expect(credentials).toEqual({
      name: LOAD_ENV.credentials,
      valueFrom: { secretKeyRef: { name: expect.any(String), key: "credentials.json" } },
    });

    // What k6-operator does, done locally: each runner runs the archive with the TestRun's arguments and env on
    // its segment, writing to its own results directory (the claim's subPathExpr).
    const vu = testRun.spec.runner.env.find((e: { name: string }) => e.name === LOAD_ENV.vu).value as string;
    const sequence = "0,1/3,2/3,1";
    const segments = ["0:1/3", "1/3:2/3", "2/3:1"];
    const runnerDirs: string[] = [];
    const codes = await Promise.all(
      segments.map(async (segment, i) => {
        const results = path.join(workDir, "results", `runner-${i + 1}`);
        runnerDirs.push(results);
        await mkdir(results, { recursive: true });
        const args = (testRun.spec.arguments as string).replaceAll("/results", results).split(" ");
        return runK6(
          [
            "run",
            "--quiet",
            ...args,
            "--execution-segment",
            segment,
            "--execution-segment-sequence",
            sequence,
            path.join(dir, "archive.tar"),
          ],
          {
            [LOAD_ENV.vu]: vu.replace("/results/", `${results}/`),
            [LOAD_ENV.credentials]: JSON.stringify([{ client_id: "operator-test", client_secret: SECRET }]),
            K6_NO_USAGE_REPORT: "true",
          },
        );
      }),
    );
    for (const code of codes) expect([0, 99]).toContain(code);

    const merged = await runInProcess(
      loadMergeCommand,
      [...runnerDirs, "--plan", path.join(dir, "plan.json")],
      env,
    );
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toContain("instances 3:");
    const summary = JSON.parse(await readFile(path.join(dir, "merged", "summary.json"), "utf8"));
    const accepted = summary.metrics[METRIC.eventsFailed].values.fails as number;
    const perRunner = summary.harness.context.instances.map(
      (t: { eventsAccepted: number }) => t.eventsAccepted,
    );
    expect(perRunner).toHaveLength(3);
    expect(accepted).toBe(perRunner.reduce((a: number, b: number) => a + b, 0));
    expect(accepted).toBeGreaterThanOrEqual(85);

    // Part of a run is no verdict.
    const partial = await runInProcess(
      loadMergeCommand,
      [...runnerDirs.slice(0, 2), "--plan", path.join(dir, "plan.json")],
      env,
    );
    expect(partial.code).toBe(3);
  }, 180_000);

  it("refuses the embedded sandbox: the cluster cannot reach it", async ({ tmpDir: workDir }) => {
    const run = await runInProcess(loadCommand, ["sustained", "--k6-operator", path.join(workDir, "nope")], {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--k6-operator needs the target");
  });
});
