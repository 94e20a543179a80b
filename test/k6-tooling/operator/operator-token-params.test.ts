import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll } from "vitest";
import { loadCommand } from "../../../cli/commands/load.ts";
import type { K6Binary } from "../../../k6-tooling/binary/k6-binary.ts";
import { ensureK6 } from "../../../k6-tooling/binary/k6-binary.ts";
import { LOAD_ENV } from "../../../load/index.ts";
import { startSandbox } from "../../../sandbox/index.ts";
import { it as base, describe, expect } from "../../support/fixtures.ts";
import { runInProcess } from "../../support/run-in-process.ts";
import { filesWithContent, formsIn, secretForms } from "../../support/secret-forms.ts";
import { startTokenParamGate } from "../../support/token-param-gate.ts";

// A --token-param value is often an API key or a client assertion: like the client secret, it reaches the runners
// through the team's Secret, never through a file the harness writes.
const CLIENT = "operator-param-client";
const SECRET = `operator-param-secret-${randomBytes(6).toString("hex")}`;
const PARAM = "api_key";
const VALUE = `k6op-${randomBytes(9).toString("hex")}/+= é`;
const FORMS = secretForms(VALUE);

let k6: K6Binary;

beforeAll(async () => {
  k6 = await ensureK6({ env: process.env, stderr: process.stderr });
}, 600_000);

/** The sandbox the runners reach, behind a gate that refuses a token request without the parameter's value. */
const it = base
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
  .extend("upstream", async ({}, { onCleanup }) => {
    const sandbox = await startSandbox({ port: 0, clients: [{ clientId: CLIENT, clientSecret: SECRET }] });
    onCleanup(() => sandbox.close());
    return sandbox;
  })
  .extend("gate", async ({ upstream }, { onCleanup }) => {
    const gate = await startTokenParamGate({ upstream: upstream.baseUrl, name: PARAM, value: VALUE });
    onCleanup(() => gate.close());
    return gate;
  });

interface K6Run {
  readonly code: number | null;
  readonly stderr: string;
}

function runK6(args: readonly string[], env: Record<string, string>): Promise<K6Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(k6.path, args, {
      env: { PATH: process.env.PATH ?? "", K6_NO_USAGE_REPORT: "true", ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stderr }));
  });
}

describe("load --k6-operator with --token-param", () => {
  it("writes the parameter's name, never its value, and the runners get the value from the Secret", async ({
    tmpDir: workDir,
    upstream: sandbox,
    gate,
  }) => {
    const dir = path.join(workDir, "operator");
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      EVENT_API_CLIENT_SECRET: SECRET,
      ...(process.env.K6_BIN ? { K6_BIN: process.env.K6_BIN } : {}),
    };
    const made = await runInProcess(
      loadCommand,
      [
        "sustained",
        "--instances",
        "2",
        "--rate",
        "10",
        "--duration",
        "2s",
        "--k6-operator",
        dir,
        "--auth-url",
        gate.authUrl,
        "--base-url",
        gate.baseUrl,
        "--audience",
        sandbox.baseUrl,
        "--client-id",
        CLIENT,
        "--token-param",
        `${PARAM}=${VALUE}`,
      ],
      env,
    );
    expect(made.stderr).not.toContain("Error");
    expect(made.code).toBe(0);

    // Every file it wrote, the archive's own files (extracted by tar) and the ConfigMap's decoded archive included.
    const files = await filesWithContent(dir);
    const extracted = path.join(workDir, "extracted");
    await mkdir(extracted);
    await promisify(execFile)("tar", ["-xf", path.join(dir, "archive.tar"), "-C", extracted]);
    const inArchive = await filesWithContent(extracted);
    expect([...inArchive.keys()]).toContain("metadata.json");
    const configMap = JSON.parse(await readFile(path.join(dir, "manifests/configmap.json"), "utf8"));
    const decoded = Buffer.from(configMap.binaryData["archive.tar"], "base64");
    const leaks = [
      ...formsIn(Buffer.from(made.stdout), FORMS, "stdout"),
      ...formsIn(Buffer.from(made.stderr), FORMS, "stderr"),
      ...[...files].flatMap(([name, content]) => formsIn(content, FORMS, name)),
      ...[...inArchive].flatMap(([name, content]) => formsIn(content, FORMS, `archive.tar:${name}`)),
      ...formsIn(decoded, FORMS, "the ConfigMap's archive"),
    ];
    expect(leaks).toEqual([]);

    // The TestRun takes the values from a second key of the same Secret; the README says how to fill it.
    const testRun = JSON.parse(await readFile(path.join(dir, "manifests/testrun.json"), "utf8"));
    const runnerEnv = testRun.spec.runner.env as Array<{ name: string; value?: string; valueFrom?: unknown }>;
    const credentials = runnerEnv.find((e) => e.name === LOAD_ENV.credentials);
    const params = runnerEnv.find((e) => e.name === LOAD_ENV.tokenParams);
    expect(params).toEqual({
      name: LOAD_ENV.tokenParams,
      valueFrom: { secretKeyRef: { name: expect.any(String), key: "token-params.json" } },
    });
    const secretOf = (entry: { valueFrom?: unknown } | undefined) =>
      (entry?.valueFrom as { secretKeyRef?: { name?: string } } | undefined)?.secretKeyRef?.name;
    expect(secretOf(params)).toBe(secretOf(credentials));
    expect(secretOf(credentials)).toEqual(expect.any(String));
    const readme = (files.get("README.md") ?? Buffer.alloc(0)).toString("utf8");
    expect(readme).toContain("--from-file=token-params.json=");
    expect(readme).toContain(`"${PARAM}"`);

    // What a runner pod does: the archive with the TestRun's env, the Secret's keys as variables.
    const vu = (runnerEnv.find((e) => e.name === LOAD_ENV.vu)?.value ?? "") as string;
    const results = path.join(workDir, "results");
    await mkdir(results);
    const args = (testRun.spec.arguments as string).replaceAll("/results", results).split(" ");
    const pod = (secretParams: string) =>
      runK6(["run", "--quiet", ...args, path.join(dir, "archive.tar")], {
        [LOAD_ENV.vu]: vu.replace("/results/", `${results}/`),
        [LOAD_ENV.credentials]: JSON.stringify([{ client_id: CLIENT, client_secret: SECRET }]),
        [LOAD_ENV.tokenParams]: secretParams,
      });
    const ran = await pod(JSON.stringify({ [PARAM]: VALUE }));
    expect(ran.code, ran.stderr).toBe(0);
    expect(gate.seen.carried).toBeGreaterThan(0);
    expect(gate.seen.refused).toBe(0);

    // A Secret that lacks the parameter stops the runner at start, naming it (never a run without it).
    const before = { ...gate.seen };
    const lacking = await pod(JSON.stringify({ api_kee: "typo" }));
    expect(lacking.code).not.toBe(0);
    expect(lacking.stderr).toContain(LOAD_ENV.tokenParams);
    expect(lacking.stderr).toContain(PARAM);
    expect(lacking.stderr).toContain("api_kee");
    expect(lacking.stderr).not.toContain("typo");
    expect(gate.seen).toEqual(before);
  }, 240_000);
});
