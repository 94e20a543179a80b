import { chmod, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { CannotRunError } from "../../../core/index.ts";
import type { K6Binary } from "../../../k6-tooling/binary/k6-binary.ts";
import { CONFIG_MAP_LIMIT_BYTES } from "../../../k6-tooling/operator/k6-operator-manifests.ts";
import { PLAN_FORMAT, writeK6Operator } from "../../../k6-tooling/operator/write-k6-operator.ts";
import type { RunConfig } from "../../../load/index.ts";
import { LOAD_ENV, planScenario } from "../../../load/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { runConfig } from "../../support/run-config-fixture.ts";

const SECRET = "client-secret-7f3a9c";
const PARAM_VALUE = "param-value-51d2e8";

/**
 * A stand-in k6 whose `k6 archive` records its arguments and environment beside itself and writes `archiveBody`
 * (a shell expression printing the archive) to --archive-out, or fails when `archiveBody` is undefined.
 */
async function fakeK6(dir: string, archiveBody: string | undefined): Promise<K6Binary> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, "k6");
  const archive =
    archiveBody === undefined
      ? 'echo "cannot open bundle: no such file" >&2\nexit 107'
      : `out=""; prev=""\nfor a in "$@"; do if [ "$prev" = "--archive-out" ]; then out="$a"; fi; prev="$a"; done\n${archiveBody} > "$out"`;
  await writeFile(
    file,
    `#!/bin/sh\nhere=$(dirname "$0")\nprintf '%s\\n' "$@" > "$here/args"\nenv > "$here/env"\n${archive}\n`,
  );
  await chmod(file, 0o755);
  return { path: file, version: "v2.2.0", source: "K6_BIN", harnessExtension: true, samplesOutput: true };
}

/** Every file under `dir`, relative to it, sorted. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

async function readJson(file: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
}

async function setUp(root: string, archiveBody: string | undefined, overrides: Partial<RunConfig> = {}) {
  const k6 = await fakeK6(path.join(root, "k6"), archiveBody);
  const dir = path.join(root, "out");
  await mkdir(dir);
  const dataFile = path.join(root, "templates.json");
  await writeFile(dataFile, '{"templates":[]}\n');
  const bundle = path.join(root, "sustained.js");
  await writeFile(bundle, "export default function () {}\n");
  const config = runConfig("sustained", {
    runId: "Run_42/Prod",
    instances: 3,
    credentials: [{ clientId: "client", clientSecret: SECRET }],
    ...overrides,
  });
  const input = {
    dir,
    k6,
    bundle,
    dataFile,
    config,
    plan: planScenario(config),
    context: { note: "the caller's own" },
    parentEnv: { PATH: process.env.PATH ?? "", EVENT_API_CLIENT_SECRET: SECRET },
    signal: new AbortController().signal,
  };
  return { input, dir, k6dir: path.dirname(k6.path), dataFile };
}

describe("writeK6Operator", () => {
  it("writes the archive into a ConfigMap, the TestRun, the claim and the plan, with no secret anywhere", async ({
    tmpDir,
  }) => {
    const { input, dir, k6dir, dataFile } = await setUp(tmpDir, "printf 'archive-bytes'");
    const written = await writeK6Operator(input);
    expect(written).toEqual({
      files: [
        "archive.tar",
        "event-templates.json",
        "k6-options.json",
        "plan.json",
        "README.md",
        "manifests/configmap.json",
        "manifests/results-claim.json",
        "manifests/testrun.json",
      ],
      archiveBytes: 13,
      inConfigMap: true,
    });
    expect(await filesUnder(dir)).toEqual([...written.files].sort());

    const configMap = await readJson(path.join(dir, "manifests", "configmap.json"));
    const binaryData = configMap.binaryData as Record<string, string>;
    expect(Buffer.from(binaryData["archive.tar"] ?? "", "base64").toString()).toBe("archive-bytes");
    const testRun = await readJson(path.join(dir, "manifests", "testrun.json"));
    const spec = testRun.spec as Record<string, unknown>;
    expect(spec.parallelism).toBe(3);
    expect(spec.script).toEqual({ configMap: { name: "eh-run-42-prod-script", file: "archive.tar" } });
    expect((spec.runner as Record<string, unknown>).image).toBe("grafana/k6:2.2.0");
    expect(await readJson(path.join(dir, "plan.json"))).toEqual({
      format: PLAN_FORMAT,
      context: { note: "the caller's own" },
      parallelism: 3,
    });
    // The event data is copied inside DIR, where the VU settings name it.
    expect(await readFile(path.join(dir, "event-templates.json"), "utf8")).toBe(
      await readFile(dataFile, "utf8"),
    );
    const readme = await readFile(path.join(dir, "README.md"), "utf8");
    expect(readme).toContain("kubectl create secret generic eh-run-42-prod-credentials");
    expect(readme).toContain("is inside `manifests/configmap.json`");

    // The archive ran with blank credentials and an environment without the caller's secret.
    const args = (await readFile(path.join(k6dir, "args"), "utf8")).split("\n");
    expect(args.slice(0, 2)).toEqual(["archive", "--quiet"]);
    expect(args).toContain(`${LOAD_ENV.credentials}=[]`);
    expect(args.find((arg) => arg.startsWith(`${LOAD_ENV.vu}=`))).toContain(
      path.join(dir, "event-templates.json"),
    );
    for (const file of [
      ...written.files.map((name) => path.join(dir, name)),
      ...["args", "env"].map((name) => path.join(k6dir, name)),
    ]) {
      expect(await readFile(file, "utf8"), file).not.toContain(SECRET);
    }
  });

  it("leaves an archive over a ConfigMap's limit on the claim, and removes a ConfigMap an earlier run wrote", async ({
    tmpDir,
  }) => {
    const { input, dir } = await setUp(tmpDir, `head -c ${CONFIG_MAP_LIMIT_BYTES + 1} /dev/zero`);
    await mkdir(path.join(dir, "manifests"));
    await writeFile(path.join(dir, "manifests", "configmap.json"), "{}");
    const written = await writeK6Operator(input);
    expect(written.inConfigMap).toBe(false);
    expect(written.archiveBytes).toBe(CONFIG_MAP_LIMIT_BYTES + 1);
    expect(await readdir(path.join(dir, "manifests"))).not.toContain("configmap.json");
    const spec = (await readJson(path.join(dir, "manifests", "testrun.json"))).spec as Record<
      string,
      unknown
    >;
    expect(spec.script).toEqual({
      volumeClaim: { name: "eh-run-42-prod-results", file: "archive.tar", readOnly: false },
    });
    const readme = await readFile(path.join(dir, "README.md"), "utf8");
    expect(readme).toContain("The archive is 1.00 MiB, over a ConfigMap's 1 MiB limit");
    expect(readme).toContain("5. When the TestRun's stage is `finished`");
  });

  it("archives an archive exactly at the limit in the ConfigMap", async ({ tmpDir }) => {
    const { input } = await setUp(tmpDir, `head -c ${CONFIG_MAP_LIMIT_BYTES} /dev/zero`);
    expect((await writeK6Operator(input)).inConfigMap).toBe(true);
  });

  it("names the token parameters, never their values, and archives blanks under those names", async ({
    tmpDir,
  }) => {
    const { input, dir, k6dir } = await setUp(tmpDir, "printf 'a'", {
      tokenParams: { resource_key: PARAM_VALUE },
    });
    const written = await writeK6Operator(input);
    const args = (await readFile(path.join(k6dir, "args"), "utf8")).split("\n");
    expect(args).toContain(`${LOAD_ENV.tokenParams}={"resource_key":""}`);
    const readme = await readFile(path.join(dir, "README.md"), "utf8");
    expect(readme).toContain('{"resource_key":"…"}');
    expect(readme).toContain("--from-file=token-params.json=PATH/TO/token-params.json");
    const spec = (await readJson(path.join(dir, "manifests", "testrun.json"))).spec as Record<
      string,
      unknown
    >;
    const env = (spec.runner as { env: Array<{ name: string }> }).env.map((entry) => entry.name);
    expect(env).toContain(LOAD_ENV.tokenParams);
    for (const name of [...written.files, "../k6/args", "../k6/env"]) {
      expect(await readFile(path.join(dir, name), "utf8"), name).not.toContain(PARAM_VALUE);
    }
  });

  it("says when TLS is not verified", async ({ tmpDir }) => {
    const { input, dir } = await setUp(tmpDir, "printf 'a'", { insecure: true });
    await writeK6Operator(input);
    expect(await readFile(path.join(dir, "README.md"), "utf8")).toContain(
      "TLS certificates are **not verified**",
    );
  });

  it("stops with CannotRunError and k6's own words when k6 archive fails", async ({ tmpDir }) => {
    const { input } = await setUp(tmpDir, undefined);
    const attempt = writeK6Operator(input);
    await expect(attempt).rejects.toBeInstanceOf(CannotRunError);
    await expect(attempt).rejects.toThrow("k6 archive failed (exit 107): cannot open bundle: no such file");
  });

  it("does not start k6 archive once interrupted", async ({ tmpDir }) => {
    const { input, k6dir } = await setUp(tmpDir, "printf 'a'");
    const controller = new AbortController();
    controller.abort();
    const attempt = writeK6Operator({ ...input, signal: controller.signal });
    await expect(attempt).rejects.toBeInstanceOf(CannotRunError);
    await expect(attempt).rejects.toThrow("interrupted before k6 archive ran");
    expect(await readdir(k6dir)).toEqual(["k6"]);
  });
});
