import { execFile, spawn } from "node:child_process";
import { constants } from "node:fs";
import { access, mkdir, mkdtemp, readdir, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

/**
 * The Keycloak the integration tests run against, pinned: its server distribution from Maven Central
 * (`org.keycloak:keycloak-quarkus-dist`, the tar.gz), copied with a pinned maven-dependency-plugin and unpacked into
 * `.tools/keycloak/` beside k6, once. Development only: the harness itself never starts Keycloak.
 */
export const KEYCLOAK_VERSION = "26.7.3";
const DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.8.1";
const ARTIFACT = `org.keycloak:keycloak-quarkus-dist:${KEYCLOAK_VERSION}:tar.gz`;
/** Keycloak 26 runs on Java 17, 21 and 25. */
const JAVA_MIN_MAJOR = 17;

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const KEYCLOAK_TOOLS_DIR = path.join(ROOT, ".tools", "keycloak");
/** The unpacked distribution (`bin/kc.sh`, `lib/`, `conf/`). */
export const KEYCLOAK_HOME = path.join(KEYCLOAK_TOOLS_DIR, `keycloak-${KEYCLOAK_VERSION}`);

/** The download alone takes seconds; this only stops a hung Maven. */
const MAVEN_TIMEOUT_MS = 10 * 60_000;

/** Java or Maven is missing or too old: the message says what to install. */
export class KeycloakToolError extends Error {}

async function isExecutable(file: string): Promise<boolean> {
  return access(file, constants.X_OK).then(
    () => true,
    () => false,
  );
}

async function onPath(name: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (dir !== "" && (await isExecutable(path.join(dir, name)))) return path.join(dir, name);
  }
  return undefined;
}

/** The java kc.sh will run: `$JAVA`, else `$JAVA_HOME/bin/java`, else `java` on PATH. */
async function javaOf(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  if (env.JAVA) return env.JAVA;
  if (env.JAVA_HOME) return path.join(env.JAVA_HOME, "bin", "java");
  return onPath("java", env);
}

/** The Java kc.sh would run, checked to be Java 17 or later; a KeycloakToolError saying what to install if not. */
export async function checkJava(env: NodeJS.ProcessEnv): Promise<string> {
  const java = await javaOf(env);
  const install = `Keycloak ${KEYCLOAK_VERSION} needs Java ${JAVA_MIN_MAJOR} or later (Debian: apt-get install openjdk-17-jre-headless)`;
  if (java === undefined)
    throw new KeycloakToolError(`${install}; no java on PATH, and neither JAVA nor JAVA_HOME is set`);
  let said: string;
  try {
    // `java -version` writes to stderr.
    const { stderr } = await promisify(execFile)(java, ["-version"], { env, timeout: 30_000 });
    said = stderr;
  } catch (error) {
    throw new KeycloakToolError(`${install}; ${java} did not run (${(error as Error).message})`);
  }
  const major = Number(/version "(?:1\.)?(\d+)/.exec(said)?.[1] ?? Number.NaN);
  if (!(major >= JAVA_MIN_MAJOR)) {
    throw new KeycloakToolError(
      `${install}; ${java} is ${said.split("\n")[0]?.trim() ?? "of no known version"}`,
    );
  }
  return java;
}

/** True when the pinned distribution is unpacked and whole (a half-unpacked one is never renamed into place). */
export async function keycloakInstalled(): Promise<boolean> {
  const version = await readFile(path.join(KEYCLOAK_HOME, "version.txt"), "utf8").catch(() => "");
  return version.includes(KEYCLOAK_VERSION) && (await isExecutable(path.join(KEYCLOAK_HOME, "bin", "kc.sh")));
}

function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const output: string[] = [];
    const child = spawn(command, args, {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: MAVEN_TIMEOUT_MS,
    });
    const keep = (chunk: Buffer) => {
      output.push(chunk.toString());
      if (output.length > 200) output.shift();
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      const tail = output.join("").trim().split("\n").slice(-20).join("\n");
      if (code === 0) resolve(tail);
      else reject(new Error(`${path.basename(command)} ${args[0] ?? ""} exited ${code ?? signal}\n${tail}`));
    });
  });
}

/**
 * Returns the Keycloak home, fetching and unpacking the pinned distribution first when it is not there: Maven copies
 * the tar.gz (its ordinary local repository caches it too), `tar` unpacks it with its modes, and the result is renamed
 * into place, so a concurrent or interrupted install never leaves a half tree that looks whole.
 */
export async function ensureKeycloak(
  env: NodeJS.ProcessEnv = process.env,
  log: (line: string) => void = () => {},
): Promise<string> {
  await checkJava(env);
  if (await keycloakInstalled()) return KEYCLOAK_HOME;
  const mvn = await onPath("mvn", env);
  if (mvn === undefined) {
    throw new KeycloakToolError(
      `Keycloak ${KEYCLOAK_VERSION} is not in ${path.relative(ROOT, KEYCLOAK_TOOLS_DIR)} and Maven is not installed to fetch it from Maven Central (Debian: apt-get install maven)`,
    );
  }
  await mkdir(KEYCLOAK_TOOLS_DIR, { recursive: true });
  const work = await mkdtemp(path.join(KEYCLOAK_TOOLS_DIR, ".install-"));
  try {
    log(`fetching Keycloak ${KEYCLOAK_VERSION} from Maven Central (${ARTIFACT}, about 170 MB, once)…`);
    await run(
      mvn,
      [
        "-q",
        "-B",
        `${DEPENDENCY_PLUGIN}:copy`,
        `-Dartifact=${ARTIFACT}`,
        `-DoutputDirectory=${work}`,
        "-Dmdep.overWriteReleases=true",
      ],
      work,
      env,
    );
    const archive = (await readdir(work)).find((name) => name.endsWith(".tar.gz"));
    if (archive === undefined) throw new Error(`Maven copied no tar.gz of ${ARTIFACT} into ${work}`);
    // tar keeps the distribution's modes (bin/*.sh executable), which the dependency plugin's unpack may drop.
    await run("tar", ["--no-same-owner", "-xzf", archive], work, env);
    const unpacked = path.join(work, `keycloak-${KEYCLOAK_VERSION}`);
    if (!(await isExecutable(path.join(unpacked, "bin", "kc.sh")))) {
      throw new Error(`${archive} has no keycloak-${KEYCLOAK_VERSION}/bin/kc.sh`);
    }
    await rm(KEYCLOAK_HOME, { recursive: true, force: true });
    await rename(unpacked, KEYCLOAK_HOME);
    log(`Keycloak ${KEYCLOAK_VERSION} unpacked into ${path.relative(ROOT, KEYCLOAK_HOME)}`);
    return KEYCLOAK_HOME;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

// `tsx scripts/keycloak/install-keycloak.ts`: what .ci/run calls; exit 1 with the reason when it cannot.
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  ensureKeycloak(process.env, (line) => console.log(line)).then(
    (home) => console.log(`Keycloak ${KEYCLOAK_VERSION}: ${path.relative(ROOT, home)}`),
    (error: unknown) => {
      console.error(`Keycloak: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}
