import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../../bin/event-harness.js", import.meta.url));

/** A developer's own target settings must not leak into the tests: empty means unset. */
const CLEAN_ENV = Object.fromEntries(
  [
    "AUTH_URL",
    "BASE_URL",
    "CLIENT_ID",
    "CLIENT_SECRET",
    "AUDIENCE",
    "CHANNEL_ID",
    "TIMEOUT",
    "RUN_TIMEOUT",
    "OLD_CLIENT_SECRET",
    "OLD_ACCESS_TOKEN",
    "TOKEN_URL",
    "CLIENT_AUTH",
    "SCOPE",
    "INSECURE",
    "RESOURCE",
    "TOKEN_PARAMS",
  ]
    .map((name) => [`EVENT_API_${name}`, ""])
    .concat([
      ["EVENT_HARNESS_CONFIG", ""],
      ["EVENT_HARNESS_ENVIRONMENT", ""],
      ["EVENT_HARNESS_ACCEPTED", ""],
    ]),
);

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/**
 * Runs the real CLI in a child process, with a hard time limit so a hang fails the test instead of CI; `cli` is
 * another launcher (e.g. of a packed build) when given.
 */
export function runCli(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  limitMs = 60_000,
  cli: string = CLI,
): Promise<CliRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env: { ...process.env, ...CLEAN_ENV, ...env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), limitMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}
