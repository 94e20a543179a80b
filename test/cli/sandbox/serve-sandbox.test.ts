import { once } from "node:events";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { PassThrough } from "node:stream";
import { request } from "undici";
import type { CommandIo } from "../../../cli/command.ts";
import type { SandboxOptionValues } from "../../../cli/options/sandbox-options.ts";
import { serveSandbox } from "../../../cli/sandbox/serve-sandbox.ts";
import { UsageError } from "../../../core/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { postCheckoutEvent } from "../../support/post-checkout-event.ts";

interface Served {
  /** stdout up to the first write: the banner or the JSON line. */
  readonly first: string;
  /** Aborts the signal, then resolves to the exit code and everything written. */
  stop(): Promise<{ code: number; stdout: string; stderr: string }>;
}

/** Runs serveSandbox on port 0 until the test stops it; resolves once its first output is written. */
async function serve(options: SandboxOptionValues, env: NodeJS.ProcessEnv = {}): Promise<Served> {
  const stdout = new PassThrough().setEncoding("utf8");
  const stderr = new PassThrough().setEncoding("utf8");
  let out = "";
  let err = "";
  stderr.on("data", (chunk: string) => {
    err += chunk;
  });
  const controller = new AbortController();
  const io: CommandIo = { stdout, stderr, env, signal: controller.signal };
  const firstWrite = once(stdout, "data");
  const running = serveSandbox({ port: "0", ...options }, io);
  const [first] = (await Promise.race([firstWrite, running.then(() => ["(returned)"])])) as [string];
  out += first;
  stdout.on("data", (chunk: string) => {
    out += chunk;
  });
  return {
    first,
    async stop() {
      controller.abort();
      const code = await running;
      return { code, stdout: out, stderr: err };
    },
  };
}

/** The UsageError serveSandbox refuses `options` with, before it listens (its signal is aborted from the start). */
async function refusal(options: SandboxOptionValues, env: NodeJS.ProcessEnv = {}): Promise<UsageError> {
  const controller = new AbortController();
  controller.abort();
  const io: CommandIo = {
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    env,
    signal: controller.signal,
  };
  const error: unknown = await serveSandbox({ port: "0", ...options }, io).then(
    () => new Error("accepted"),
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof UsageError)) throw error;
  return error;
}

async function tokenStatus(tokenUrl: string, clientId: string, clientSecret: string): Promise<number> {
  const response = await request(tokenUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: clientId,
      client_secret: clientSecret,
    }).toString(),
  });
  await response.body.dump();
  return response.statusCode;
}

describe("serveSandbox", () => {
  it("--json hands over one JSON line whose clients get tokens, then stops on abort with exit 0 and nothing more", async () => {
    const served = await serve({ json: true, client: ["alpha:alpha-secret-1", "beta:beta-secret-2"] });
    const handoff = JSON.parse(served.first) as {
      token_url: string;
      auth_url: string;
      clients: { client_id: string; client_secret: string }[];
    };
    expect(served.first.endsWith("}\n")).toBe(true);
    expect(handoff.token_url).toBe(`${handoff.auth_url}/oauth/token`);
    expect(handoff.clients).toEqual([
      { client_id: "alpha", client_secret: "alpha-secret-1" },
      { client_id: "beta", client_secret: "beta-secret-2" },
    ]);
    expect(await tokenStatus(handoff.token_url, "beta", "beta-secret-2")).toBe(200);
    expect(await tokenStatus(handoff.token_url, "beta", "alpha-secret-1")).toBe(401);
    const stopped = await served.stop();
    expect(stopped).toEqual({ code: 0, stdout: served.first, stderr: "" });
  });

  it("the banner names a given client without its secret, a given admin token not at all, and says when it stopped", async () => {
    const secret = "client-secret-never-shown";
    const adminToken = "admin-token-never-shown-0123456789";
    const served = await serve(
      { client: [`shop:${secret}`], fault: ["bearer-alg-none", "bearer-alg-none"] },
      { EVENT_HARNESS_ADMIN_TOKEN: ` ${adminToken} ` },
    );
    const { code, stdout, stderr } = await served.stop();
    expect(code).toBe(0);
    expect(stderr).toBe("");
    expect(stdout).toContain("  Client          shop (secret as given, not shown)");
    expect(stdout).toContain("  Admin token     as given (not shown)");
    expect(stdout.match(/ {2}Fault {11}bearer-alg-none: /g)).toHaveLength(1);
    expect(stdout).not.toContain(secret);
    expect(stdout).not.toContain(adminToken);
    expect(stdout.endsWith("Stop with Ctrl+C.\nSandbox stopped.\n")).toBe(true);
  });

  it("the banner of the defaults shows the throwaway credentials, no fault, and the auth URL for a standard token path", async () => {
    const served = await serve({});
    const { stdout } = await served.stop();
    expect(stdout).toMatch(/ {2}Token endpoint {2}(http:\/\/\S+)\/oauth\/token {3}\(auth URL \1\)/);
    expect(stdout).toContain(
      "  Client          sandbox-demo / sandbox-demo-secret  (throwaway demo credential",
    );
    expect(stdout).toMatch(/ {2}Admin token {5}\S{16,} {2}\(throwaway credential of this local sandbox\)/);
    expect(stdout).toContain("  Faults          none");
    expect(stdout).not.toContain("Throughput");
  });

  it("a custom token path is given as --token-url, and a throughput limit is in the banner", async () => {
    const served = await serve({
      "token-path": "/realms/shop/token",
      "throughput-limit": "7",
      "queue-limit": "250",
    });
    const { stdout } = await served.stop();
    expect(stdout).toMatch(
      / {2}Token endpoint {2}http:\/\/\S+\/realms\/shop\/token {3}\(give it as --token-url\)/,
    );
    expect(stdout).toContain(
      "  Throughput      at most 7 events/s; an event that would wait over 250 ms is refused (503)",
    );
  });

  it("notes on stderr a host that is not only loopback", async () => {
    const served = await serve({ host: "127.0.0.2" });
    const { stderr } = await served.stop();
    expect(stderr).toBe("event-harness: note: listening on 127.0.0.2, not only on loopback.\n");
  });

  it("refuses an empty host, a client that is not ID:SECRET, and a client given twice", async () => {
    expect(await refusal({ host: "  " })).toMatchObject({
      code: "invalid-value",
      message: "--host must not be empty",
      command: "sandbox",
    });
    for (const client of ["no-colon", ":secret", "id:"]) {
      expect(await refusal({ client: [client] })).toMatchObject({
        code: "invalid-value",
        message: "--client takes ID:SECRET with both parts non-empty",
      });
    }
    expect(await refusal({ client: ["a:1", "b:2", "a:3"] })).toMatchObject({
      code: "invalid-value",
      message: "--client a is given twice",
    });
  });

  it("refuses an unknown fault with the closest name and the list of valid ones", async () => {
    const error = await refusal({ fault: ["bearer-alg-nne"] });
    expect(error).toMatchObject({ code: "invalid-value", command: "sandbox" });
    expect(error.message).toMatch(
      /^unknown fault 'bearer-alg-nne'; did you mean 'bearer-alg-none'\?; valid faults: token-any-grant-type, .*, bearer-alg-none, /,
    );
  });

  it("refuses a bad admin token from the environment, a bad token path and option pairs given half", async () => {
    expect((await refusal({}, { EVENT_HARNESS_ADMIN_TOKEN: "short" })).message).toMatch(/^--admin-token: /);
    expect((await refusal({ "token-path": "/api/token" })).message).toMatch(/^--token-path: /);
    expect((await refusal({ "token-path": "relative" })).code).toBe("invalid-value");
    expect(await refusal({ "tls-cert": "cert.pem" })).toMatchObject({
      code: "invalid-config",
      message: "--tls-cert and --tls-key go together",
    });
    expect(await refusal({ "queue-limit": "10" })).toMatchObject({
      code: "invalid-config",
      message: "--queue-limit applies only with --throughput-limit",
    });
  });

  it("refuses a TLS file it cannot read, naming the option", async ({ tmpDir }) => {
    const key = path.join(tmpDir, "key.pem");
    await writeFile(key, "not a key");
    const error = await refusal({ "tls-cert": path.join(tmpDir, "missing.pem"), "tls-key": key });
    expect(error.code).toBe("invalid-value");
    expect(error.message).toMatch(/^--tls-cert .*missing\.pem: /);
  });

  it("makes the journal's folder and journals each accepted event there as one JSON line", async ({
    tmpDir,
  }) => {
    const journal = path.join(tmpDir, "a", "b", "events.ndjson");
    const served = await serve({ json: true, journal });
    const handoff = JSON.parse(served.first) as { token_url: string; base_url: string };
    const status = await postCheckoutEvent(
      {
        tokenUrl: handoff.token_url,
        baseUrl: handoff.base_url,
        clientId: "sandbox-demo",
        clientSecret: "sandbox-demo-secret",
      },
      "serve-sandbox-journal-1",
    );
    expect(status).toBe(202);
    expect((await served.stop()).code).toBe(0);
    // Only the journal itself: the folder's write probe is gone.
    expect(await readdir(path.dirname(journal))).toEqual(["events.ndjson"]);
    const lines = (await readFile(journal, "utf8")).split("\n").filter((line) => line !== "");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({
      clientId: "sandbox-demo",
      event: { transaction: { reference: "serve-sandbox-journal-1" } },
    });
  });

  it("refuses a journal whose folder cannot be written before it listens (exit 2's code)", async ({
    tmpDir,
  }) => {
    const file = path.join(tmpDir, "file");
    await writeFile(file, "");
    const error = await refusal({ journal: path.join(file, "journal.ndjson") });
    expect(error.code).toBe("unwritable-path");
    expect(error.message).toMatch(/^the folder of --journal .* cannot be written to: .*\(E(NOTDIR|EXIST)\)$/);
  });

  it("refuses a port out of range", async () => {
    expect((await refusal({ port: "70000" })).code).toBe("invalid-value");
  });
});
