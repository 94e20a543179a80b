import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import { loadCommand } from "../../../cli/commands/load.ts";
import { verifyRotationCommand } from "../../../cli/commands/verify-rotation.ts";
import { ensureK6 } from "../../../k6-tooling/binary/k6-binary.ts";
import type { RunningSandbox } from "../../../sandbox/index.ts";
import { startSandbox } from "../../../sandbox/index.ts";
import type { CountingProxy } from "../../support/counting-proxy.ts";
import { startCountingProxy } from "../../support/counting-proxy.ts";
import { test as base, describe, expect } from "../../support/fixtures.ts";
import { everyFileText } from "../../support/report-texts.ts";
import { runCli } from "../../support/run-cli.ts";
import { runCliInProcess, runInProcess } from "../../support/run-in-process.ts";
import type { TestPki } from "../../support/test-ca.ts";
import { makeTestPki } from "../../support/test-ca.ts";

/**
 * A target as real deployments look: HTTPS with a certificate from a CA of the test's own, the token endpoint at a
 * Keycloak path, HTTP Basic as the only client authentication, reached through a proxy. The host name is under
 * .test, which resolves nowhere: only the proxy maps it to loopback, so every request that succeeds went through it.
 */
const HOST = "eah-target.test";
const TOKEN_PATH = "/realms/harness/protocol/openid-connect/token";
const CLIENT_ID = "reach-client";
const SECRET = `reach s3cret:${randomBytes(6).toString("hex")}+/`;
const PROXY_PASSWORD = `proxy-pass-${randomBytes(6).toString("hex")}`;

/** The file's one target, its CAs and proxy, and every output its runs wrote. */
interface World {
  readonly work: string;
  readonly pki: TestPki;
  readonly otherCa: TestPki;
  readonly target: RunningSandbox;
  readonly proxy: CountingProxy;
  readonly proxyWithPassword: string;
  /** Every console output and report of every run, searched for secrets at the end. */
  readonly outputs: string[];
}

function urls(sandbox: RunningSandbox) {
  const swap = (url: string) => url.replace("127.0.0.1", HOST);
  return { tokenUrl: swap(sandbox.tokenUrl), baseUrl: swap(sandbox.baseUrl) };
}

/** The target given the way a user would: URLs and method as flags, secret, CA and proxy in the environment. */
function reach(w: World, overrides: NodeJS.ProcessEnv = {}): { args: string[]; env: NodeJS.ProcessEnv } {
  const { tokenUrl, baseUrl } = urls(w.target);
  return {
    // The sandbox knows itself as 127.0.0.1: its tokens are for that audience.
    args: [
      "--token-url",
      tokenUrl,
      "--base-url",
      baseUrl,
      "--audience",
      w.target.baseUrl,
      "--client-id",
      CLIENT_ID,
      "--client-auth",
      "basic",
    ],
    env: {
      EVENT_API_CLIENT_SECRET: SECRET,
      NODE_EXTRA_CA_CERTS: w.pki.caFile,
      HTTPS_PROXY: w.proxyWithPassword,
      NO_PROXY: "",
      ...overrides,
    },
  };
}

async function filesUnder(dir: string): Promise<string> {
  const texts = await everyFileText(dir).catch(() => []);
  // Compressed bytes are searched unpacked (everyFileText adds them): their raw base64 or binary matches by chance.
  return texts
    .filter(([file]) => !file.endsWith(".gz"))
    .map(([, text]) => text.replace(/(<script[^>]*id="data"[^>]*>)[\s\S]*?(<\/script>)/g, "$1$2"))
    .join("\n");
}

/** A child process: NODE_EXTRA_CA_CERTS is read as a process starts, and the harness honours it from there. */
async function contract(w: World, extra: string[], env: NodeJS.ProcessEnv) {
  const dir = await mkdtemp(path.join(w.work, "contract-"));
  const run = await runCli(["contract", ...extra, "--report-dir", dir], env, 90_000);
  const reports = await filesUnder(dir);
  w.outputs.push(run.stdout, run.stderr, reports);
  const results = await readFile(path.join(dir, "results.json"), "utf8")
    .then((text) => JSON.parse(text) as ResultsJson)
    .catch(() => undefined);
  const summary = await readFile(path.join(dir, "summary.md"), "utf8").catch(() => "");
  return { ...run, results, summary };
}

interface ResultsJson {
  readonly target: Record<string, unknown>;
  readonly checks: Array<{ id: string; status: string; message: string }>;
}

async function load(w: World, extra: string[], env: NodeJS.ProcessEnv) {
  const dir = await mkdtemp(path.join(w.work, "load-"));
  const baseEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...(process.env.K6_BIN ? { K6_BIN: process.env.K6_BIN } : {}),
  };
  const run = await runInProcess(loadCommand, [...extra, "--report-dir", dir], { ...baseEnv, ...env });
  const reports = await filesUnder(dir);
  w.outputs.push(run.stdout, run.stderr, reports);
  return { ...run, dir, reports };
}

/** A loopback port nothing listens on: a dead proxy. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const statusOf = (results: ResultsJson | undefined, id: string) =>
  results?.checks.find((check) => check.id === id)?.status;

/** Set up once for the file, torn down after its last test: the target, a CA of its own and another, the proxy. */
const it = base.extend("w", { scope: "file" }, async ({ fileDir }, { onCleanup }): Promise<World> => {
  // What was started, stopped after the file's last test in the reverse order, pass or fail.
  const closers: Array<() => Promise<unknown>> = [];
  onCleanup(async () => {
    for (const close of closers.reverse()) await close();
  });
  const [pki, otherCa] = await Promise.all([
    makeTestPki([HOST, "127.0.0.1"]),
    makeTestPki([HOST], "some other CA"),
  ]);
  closers.push(() =>
    Promise.all([pki.dir, otherCa.dir].map((dir) => rm(dir, { recursive: true, force: true }))),
  );
  const target = await startSandbox({
    port: 0,
    tls: { key: pki.serverKey, cert: pki.serverCert },
    tokenPath: TOKEN_PATH,
    faults: ["token-basic-only"],
    clients: [{ clientId: CLIENT_ID, clientSecret: SECRET }],
  });
  closers.push(() => target.close());
  const proxy = await startCountingProxy([HOST]);
  closers.push(() => proxy.close());
  const proxyUrl = new URL(proxy.url);
  proxyUrl.username = "eah-user";
  proxyUrl.password = PROXY_PASSWORD;
  await ensureK6({ env: process.env, stderr: process.stderr });
  return { work: fileDir, pki, otherCa, target, proxy, proxyWithPassword: proxyUrl.toString(), outputs: [] };
});

describe("a Keycloak-style HTTPS target with Basic-only client authentication, through a proxy", () => {
  it("passes the contract: token.form-auth warns that the spec's form fields are refused", {
    timeout: 120_000,
  }, async ({ w }) => {
    const before = w.proxy.total();
    const { args, env } = reach(w);
    const run = await contract(w, args, env);
    expect(run.code, run.stderr).toBe(0);
    expect(statusOf(run.results, "token.issued")).toBe("PASS");
    expect(statusOf(run.results, "token.basic-auth")).toBe("PASS");
    expect(statusOf(run.results, "token.form-auth")).toBe("WARN");
    expect(run.results?.checks.filter((check) => !["PASS", "WARN"].includes(check.status))).toEqual([]);
    expect(run.results?.target).toMatchObject({
      tokenUrl: urls(w.target).tokenUrl,
      clientAuth: "basic",
      insecure: false,
      proxy: w.proxy.url,
      caFile: w.pki.caFile,
    });
    expect(w.proxy.total()).toBeGreaterThan(before);
    // The proxy was asked with its credentials, and they were sent only to it.
    expect(w.proxy.authorizations.length).toBeGreaterThan(0);
  });

  it("asked with form fields (the default), goes on with Basic and says once that form fields were refused", {
    timeout: 120_000,
  }, async ({ w }) => {
    const { args, env } = reach(w);
    const run = await contract(
      w,
      args
        .filter((arg) => arg !== "--client-auth" && arg !== "basic")
        .concat("--only", "token.issued,token.form-auth"),
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(
      run.stderr.split("were refused with --client-auth post but work with --client-auth basic"),
    ).toHaveLength(2);
    expect(statusOf(run.results, "token.issued")).toBe("PASS");
    expect(statusOf(run.results, "token.form-auth")).toBe("WARN");
    expect(run.stdout).toMatch(/WARN +token\.form-auth .*; works with --client-auth basic$/m);
    expect(run.results?.target).toMatchObject({ clientAuth: "basic" });
  });

  it("runs a real k6 load test against it: preflight and VUs through the proxy, Basic, the test CA", {
    timeout: 180_000,
  }, async ({ w }) => {
    const { args, env } = reach(w);
    const run = await load(w, ["sustained", "--duration", "3s", "--rate", "5", "--vus", "2", ...args], env);
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(await readFile(path.join(run.dir, "summary.json"), "utf8")) as {
      metrics: Record<string, { values: Record<string, number> }>;
    };
    // The name resolves nowhere: events accepted and tokens issued prove k6 went through the proxy with the CA.
    expect(summary.metrics.events_failed?.values.fails ?? 0).toBeGreaterThan(5);
    expect(summary.metrics.token_requests?.values.count ?? 0).toBeGreaterThan(0);
    expect(summary.metrics["token_requests{outcome:failed}"]?.values.count).toBe(0);
    const runJson = JSON.parse(await readFile(path.join(run.dir, "run.json"), "utf8")) as {
      target: Record<string, unknown>;
    };
    expect(runJson.target).toMatchObject({
      tokenUrl: urls(w.target).tokenUrl,
      clientAuth: "basic",
      insecure: false,
    });
  });

  it("verifies a rotation against it", { timeout: 60_000 }, async ({ w }) => {
    const { args, env } = reach(w);
    const dir = await mkdtemp(path.join(w.work, "rotation-"));
    const run = await runInProcess(verifyRotationCommand, [...args, "--report-dir", dir], env);
    w.outputs.push(run.stdout, run.stderr, await filesUnder(dir));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/PASS +rotation\.new-secret/);
  });
});

describe("what cannot be reached is said plainly: exit 3, no secret", () => {
  it("a CA that did not sign the target's certificate", { timeout: 120_000 }, async ({ w }) => {
    const { args, env } = reach(w, { NODE_EXTRA_CA_CERTS: w.otherCa.caFile });
    const run = await contract(w, [...args, "--only", "token.issued"], env);
    expect(run.code).toBe(3);
    expect(statusOf(run.results, "token.issued")).toBe("SKIP");
    expect(run.stderr.split("TLS: the target's certificate is not trusted")).toHaveLength(2);
    const loaded = await load(w, ["sustained", "--duration", "2s", ...args], env);
    expect(loaded.code).toBe(3);
    expect(loaded.stderr).toMatch(
      /cannot reach the token endpoint .* via the proxy .*TLS: the target's certificate is not trusted/,
    );
  });

  it("a dead proxy", { timeout: 120_000 }, async ({ w }) => {
    const dead = `http://eah-user:${PROXY_PASSWORD}@127.0.0.1:${await deadPort()}`;
    const { args, env } = reach(w, { HTTPS_PROXY: dead });
    const run = await contract(w, [...args, "--only", "token.issued"], env);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/\(the proxy 127\.0\.0\.1:\d+ could not be reached: connection refused\)$/m);
    const loaded = await load(w, ["sustained", "--duration", "2s", ...args], env);
    expect(loaded.code).toBe(3);
    expect(loaded.stderr).toMatch(
      /cannot reach the token endpoint .* via the proxy http:\/\/127\.0\.0\.1:\d+ /,
    );
  });

  it("an unreadable CA file is a configuration error (exit 2)", async ({ w }) => {
    const { args, env } = reach(w, { NODE_EXTRA_CA_CERTS: path.join(w.work, "no-such-ca.pem") });
    const run = await contract(w, args, env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("cannot read the CA file");
  });
});

describe("--insecure", () => {
  it("reaches a self-signed target without its CA, and every report says TLS was not verified", {
    timeout: 120_000,
  }, async ({ w }) => {
    const { args, env } = reach(w, { NODE_EXTRA_CA_CERTS: "" });
    const run = await contract(w, [...args, "--insecure", "--only", "token"], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.results?.target.insecure).toBe(true);
    expect(run.stdout).toContain("WARNING: TLS certificates were not verified (--insecure)");
    expect(run.summary).toContain("TLS certificates were not verified (--insecure)");
    const loaded = await load(w, ["sustained", "--duration", "2s", "--rate", "5", ...args], {
      ...env,
      EVENT_API_INSECURE: "1",
    });
    expect(loaded.code, loaded.stderr).toBe(0);
    expect(loaded.stdout).toContain("WARNING: TLS certificates were not verified (--insecure)");
    expect(await readFile(path.join(loaded.dir, "summary.md"), "utf8")).toContain(
      "TLS certificates were not verified (--insecure)",
    );
  });
});

describe("run", () => {
  it("passes the reach options to its parts, records them in each part's command line and warns in every report", {
    timeout: 180_000,
  }, async ({ w }) => {
    const dir = path.join(w.work, "run-report");
    const { args, env } = reach(w, { NODE_EXTRA_CA_CERTS: "" });
    const run = await runCli(
      ["run", "--parts", "contract", "--profile", "fast", ...args, "--insecure", "--report-dir", dir],
      env,
      150_000,
    );
    w.outputs.push(run.stdout, run.stderr, await filesUnder(dir));
    expect(run.code, run.stderr).toBe(0);
    const outcome = JSON.parse(await readFile(path.join(dir, "run.json"), "utf8")) as {
      target: Record<string, unknown>;
      parts: Array<{ command: string }>;
    };
    expect(outcome.target).toMatchObject({
      tokenUrl: urls(w.target).tokenUrl,
      clientAuth: "basic",
      insecure: true,
    });
    expect(outcome.parts[0]?.command).toContain(`--token-url ${urls(w.target).tokenUrl} --base-url`);
    expect(outcome.parts[0]?.command).toMatch(/--client-auth basic --audience \S+ --insecure$/);
    expect(outcome.parts[0]?.command).toContain(`--audience ${w.target.baseUrl} `);
    expect(await readFile(path.join(dir, "index.html"), "utf8")).toContain(
      "TLS certificates were not verified",
    );
    expect(await readFile(path.join(dir, "summary.md"), "utf8")).toContain(
      "TLS certificates were not verified",
    );
  });
});

describe("usage", () => {
  it.for([
    [["--auth-url", "https://a.example/auth", "--token-url", "https://a.example/t"], "not both"],
    [["--client-auth", "jwt"], "--client-auth takes one of post, basic"],
  ] as const)("rejects %j", async ([extra, message], { w }) => {
    const { args, env } = reach(w);
    const run = await runCliInProcess(["contract", ...args, ...extra], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });
});

describe("secrets", () => {
  it("never shows the client secret, its Basic encodings, a token or the proxy password in any output", ({
    w,
  }) => {
    const everything = w.outputs.join("\n");
    const form = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
    const leaks = [
      SECRET,
      encodeURIComponent(SECRET),
      form(SECRET),
      Buffer.from(`${CLIENT_ID}:${SECRET}`).toString("base64"),
      Buffer.from(`${form(CLIENT_ID)}:${form(SECRET)}`).toString("base64"),
      PROXY_PASSWORD,
      Buffer.from(`eah-user:${PROXY_PASSWORD}`).toString("base64"),
    ];
    for (const leak of leaks) expect(everything).not.toContain(leak);
    expect(everything).not.toMatch(/eyJ[A-Za-z0-9_-]{8,}/);
    expect(everything).toContain("<BASIC_CREDENTIALS>");
  });
});
