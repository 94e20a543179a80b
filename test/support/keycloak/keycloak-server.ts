import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFile, mkdir, mkdtemp, open, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureKeycloak, KEYCLOAK_VERSION } from "../../../scripts/keycloak/install-keycloak.ts";

/** The realm Keycloak imports as it starts, from test/support/keycloak/harness-realm.json. */
export const KEYCLOAK_REALM = "harness";
/** The harness's client in that realm (client credentials, a service account). */
export const KEYCLOAK_CLIENT_ID = "release-check";
/** The events API's own client: the audience its tokens carry, and who introspects them. */
export const KEYCLOAK_API_CLIENT_ID = "events-api";
/** The realm's access-token lifespan in seconds (`accessTokenLifespan`), fixed from issue. */
export const KEYCLOAK_TOKEN_LIFESPAN = 10;
/** The heap kc.sh gives the JVM (`JAVA_OPTS_KC_HEAP`; setting `JAVA_OPTS` would drop every other default of kc.sh). */
export const KEYCLOAK_HEAP = "-Xms64m -Xmx512m";

const REALM_FIXTURE = fileURLToPath(new URL("./harness-realm.json", import.meta.url));
/** A cold start re-augments Quarkus first (about a minute on a busy 2-core machine); a warm one boots only. */
const READY_TIMEOUT_MS = 360_000;
const STOP_TIMEOUT_MS = 30_000;

/** What a test needs to reach the running Keycloak; every value is loopback or generated for this run. */
export interface KeycloakInfo {
  readonly version: string;
  /** `http://127.0.0.1:P`, also the pinned hostname: every issuer is `{url}/realms/{realm}`. */
  readonly url: string;
  readonly managementUrl: string;
  readonly admin: { readonly username: string; readonly password: string };
  /** The imported realm's secrets, generated for this run and handed to the realm file as placeholders. */
  readonly clientSecret: string;
  readonly apiClientSecret: string;
  /** From spawning kc.sh to the realm's discovery document answering. */
  readonly startMs: number;
  /** Whether this start re-augmented Quarkus (the first start of a fresh install does). */
  readonly augmented: boolean;
}

export interface RunningKeycloak {
  readonly info: KeycloakInfo;
  stop(): Promise<void>;
}

/** Two free loopback ports: bound to port 0 together, then released (Keycloak cannot take port 0 itself). */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, async () => {
      const server = createServer();
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(0, "127.0.0.1", resolve);
      });
      return server;
    }),
  );
  const ports = servers.map((server) => {
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("no port");
    return address.port;
  });
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

async function answers(url: string): Promise<Response | undefined> {
  try {
    return await fetch(url, { signal: AbortSignal.timeout(5_000), redirect: "manual" });
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function tail(file: string, lines = 40): Promise<string> {
  const text = await readFile(file, "utf8").catch(() => "");
  return text.trim().split("\n").slice(-lines).join("\n");
}

/**
 * Keycloak's start-dev options: loopback only, an in-memory database that starts empty (so the realm is imported
 * afresh), the management interface on a port of its own (default 9000, which another run may hold), a pinned
 * hostname so `iss` does not follow the Host header, and the secret-rotation client policy (a preview feature).
 * Build options (database, cache, features, health) stay the same from run to run, so only a fresh install re-augments.
 */
export function startDevArgs(port: number, managementPort: number): string[] {
  return [
    "start-dev",
    "--http-host=127.0.0.1",
    `--http-port=${port}`,
    "--http-management-host=127.0.0.1",
    `--http-management-port=${managementPort}`,
    "--health-enabled=true",
    "--db=dev-mem",
    "--cache=local",
    `--hostname=http://127.0.0.1:${port}`,
    "--features=client-secret-rotation",
    "--import-realm",
  ];
}

/** Ends kc.sh and its JVM (one process group): SIGTERM for a graceful stop, SIGKILL if it hangs. */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid as number), name);
    } catch {
      // The group is gone already.
    }
  };
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
  // The JVM may outlive kc.sh by a moment: the group is signalled once more so nothing stays behind.
  signal("SIGKILL");
}

/**
 * Installs Keycloak if needed, starts it in dev mode on 127.0.0.1 with the test realm imported, and waits until it is
 * ready: the management interface's health endpoint, then the realm's discovery document with the pinned issuer.
 */
export async function startKeycloak(log: (line: string) => void = () => {}): Promise<RunningKeycloak> {
  const home = await ensureKeycloak(process.env, log);
  // The realm file names its secrets as ${…} placeholders, which Keycloak resolves from its environment.
  await mkdir(path.join(home, "data", "import"), { recursive: true });
  await copyFile(REALM_FIXTURE, path.join(home, "data", "import", `${KEYCLOAK_REALM}-realm.json`));
  const logDir = await mkdtemp(path.join(tmpdir(), "keycloak-"));
  const logFile = path.join(logDir, "keycloak.log");
  const [port, managementPort] = (await freePorts(2)) as [number, number];
  const admin = { username: "admin", password: `admin-${randomBytes(12).toString("hex")}` };
  const clientSecret = `kc-client-${randomBytes(16).toString("hex")}`;
  const apiClientSecret = `kc-api-${randomBytes(16).toString("hex")}`;
  const { JAVA_OPTS: _dropped, ...env } = process.env;
  const output = await open(logFile, "w");
  const started = Date.now();
  const child = spawn(path.join(home, "bin", "kc.sh"), startDevArgs(port, managementPort), {
    cwd: logDir,
    env: {
      ...env,
      JAVA_OPTS_KC_HEAP: KEYCLOAK_HEAP,
      KC_BOOTSTRAP_ADMIN_USERNAME: admin.username,
      KC_BOOTSTRAP_ADMIN_PASSWORD: admin.password,
      KC_HARNESS_CLIENT_SECRET: clientSecret,
      KC_HARNESS_API_CLIENT_SECRET: apiClientSecret,
    },
    // A process group of its own, so stopping it reaches the JVM that kc.sh starts.
    detached: true,
    stdio: ["ignore", output.fd, output.fd],
  });
  await output.close();
  // However this process ends (an uncaught error, Ctrl+C), Keycloak does not outlive it.
  const killOnExit = () => {
    try {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  };
  process.once("exit", killOnExit);
  const stop = async () => {
    process.off("exit", killOnExit);
    await stopGroup(child);
    await rm(logDir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const managementUrl = `http://127.0.0.1:${managementPort}`;
  try {
    const issuer = `${url}/realms/${KEYCLOAK_REALM}`;
    let stage = "the health endpoint";
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`exited (${child.exitCode ?? child.signalCode}) before it was ready`);
      }
      if (Date.now() - started > READY_TIMEOUT_MS) {
        throw new Error(`${stage} did not answer within ${READY_TIMEOUT_MS / 1000} s`);
      }
      if (stage === "the health endpoint") {
        if ((await answers(`${managementUrl}/health/ready`))?.status === 200)
          stage = "the realm's discovery document";
      } else {
        const discovery = await answers(`${issuer}/.well-known/openid-configuration`);
        if (discovery?.status === 200 && ((await discovery.json()) as { issuer?: string }).issuer === issuer)
          break;
      }
      await sleep(500);
    }
    const augmented = (await readFile(logFile, "utf8")).includes("Quarkus augmentation completed");
    const startMs = Date.now() - started;
    log(
      `Keycloak ${KEYCLOAK_VERSION} ready at ${url} in ${(startMs / 1000).toFixed(1)} s${augmented ? " (re-augmented first)" : ""}`,
    );
    return {
      info: {
        version: KEYCLOAK_VERSION,
        url,
        managementUrl,
        admin,
        clientSecret,
        apiClientSecret,
        startMs,
        augmented,
      },
      stop,
    };
  } catch (error) {
    const lines = await tail(logFile);
    await stop();
    throw new Error(
      `Keycloak ${KEYCLOAK_VERSION} (${path.join(home, "bin", "kc.sh")} start-dev on ${url}) ${(error as Error).message}; its log ends:\n${lines}`,
    );
  }
}
