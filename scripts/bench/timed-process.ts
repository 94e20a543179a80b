import { spawn } from "node:child_process";

export interface TimedProcess {
  readonly ms: number;
  readonly code: number | null;
}

/** Milliseconds from spawning `node <args>` until it exits, or until its first stdout line when `firstLine`. */
export function timedNode(args: readonly string[], firstLine = false): Promise<TimedProcess> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "ignore"] });
    let done = false;
    child.stdout.on("data", () => {
      if (firstLine && !done) {
        done = true;
        resolve({ ms: performance.now() - started, code: 0 });
        child.kill("SIGTERM");
      }
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (!done) resolve({ ms: performance.now() - started, code });
    });
  });
}
