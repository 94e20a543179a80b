import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../../bin/event-harness.js", import.meta.url));

/**
 * The environment a spawned CLI gets: this process's, without any EVENT_API_* or EVENT_HARNESS_* variable (a
 * developer's own target, issuer, credentials file, baseline or config must not leak into a test, whatever variables
 * the harness reads next), then the test's own.
 */
export function cliEnv(parent: NodeJS.ProcessEnv, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(
    Object.entries(parent).filter(([name]) => !/^EVENT_(API|HARNESS)_/.test(name)),
  );
  return { ...inherited, ...env, NO_COLOR: "1" };
}

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
      env: cliEnv(process.env, env),
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
