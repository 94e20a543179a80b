import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll } from "vitest";
import { loadCommand } from "../../../cli/commands/load.ts";
import type { K6Binary } from "../../../k6-tooling/binary/k6-binary.ts";
import { ensureK6 } from "../../../k6-tooling/binary/k6-binary.ts";
import { startEndlessTokenTarget } from "../../support/endless-token-target.ts";
import { it as base, describe, expect } from "../../support/fixtures.ts";
import { k6Children } from "../../support/k6-processes.ts";
import { runInProcess } from "../../support/run-in-process.ts";

/**
 * Far above what k6 needs for this run (about 60 MiB with the cap) and far below what it reached without it (past
 * 3 GB on a busy 2-core machine, 7.9 GB on a fast one, with --timeout 3): read from the kernel's VmHWM, not a clock.
 */
const PEAK_BOUND_KIB = 512 * 1024;
/** Past this the guard kills k6, so an uncapped build fails the test instead of filling the machine's memory. */
const KILL_KIB = 1024 * 1024;
const LIMIT_MS = 180_000;

let k6: K6Binary;

beforeAll(async () => {
  // The harness's own build (tools/k6 with k6/x/harness), not K6_BIN or a k6 on PATH: only it has the cap.
  const pathWithoutK6 = (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((entry) => !existsSync(path.join(entry, "k6")))
    .join(path.delimiter);
  k6 = await ensureK6({ env: { ...process.env, K6_BIN: "", PATH: pathWithoutK6 }, stderr: process.stderr });
}, 900_000);

/** A token endpoint whose body never ends, closed after the test. */
// biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
const it = base.extend("target", async ({}, { onCleanup }) => {
  const target = await startEndlessTokenTarget(1);
  onCleanup(() => target.close());
  return target;
});

/** VmHWM (peak resident set) of a process in KiB, or undefined once it is gone. */
async function peakKib(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const match = /^VmHWM:\s+(\d+) kB/m.exec(status);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

describe("k6 reads a token response only up to 1 MiB", () => {
  it.runIf(process.platform === "linux")(
    "against a token endpoint whose body never ends: the run FAILS its token requests and k6 stays small",
    async ({ tmpDir: dir, target }) => {
      let peak = 0;
      let watching = true;
      let killed = false;
      // Samples k6's peak memory for as long as the run lasts; every sample waits 20 ms, so the loop is bounded.
      const watch = (async () => {
        while (watching) {
          for (const child of await k6Children()) {
            const kib = await peakKib(child.pid);
            if (kib === undefined) continue;
            peak = Math.max(peak, kib);
            if (kib > KILL_KIB && !killed) {
              killed = true;
              process.kill(child.pid, "SIGKILL");
            }
          }
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      const run = await runInProcess(
        loadCommand,
        [
          "sustained",
          "--rate",
          "5",
          "--duration",
          "3s",
          "--vus",
          "2",
          "--timeout",
          "3",
          "--auth-url",
          `${target.url}/auth`,
          "--base-url",
          `${target.url}/api`,
          "--client-id",
          "endless-client",
          "--report-dir",
          path.join(dir, "report"),
        ],
        {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          K6_BIN: k6.path,
          EVENT_API_CLIENT_SECRET: "endless-secret-1",
        },
      );
      watching = false;
      await watch;
      expect(killed, `k6 passed ${KILL_KIB} KiB and was killed`).toBe(false);
      expect(target.endless()).toBeGreaterThan(0);
      expect(peak).toBeGreaterThan(0);
      expect(peak).toBeLessThan(PEAK_BOUND_KIB);
      expect(run.code, run.stderr).toBe(1);
      expect(k6.harnessExtension).toBe(true);
      // k6's own log lines go to k6.log; its one error line, the thresholds verdict, the harness says itself.
      expect(run.stderr).not.toContain("k6 logged");
      expect(run.stderr).toContain("thresholds failed: events_failed rate<0.01");
      const k6Log = await readFile(path.join(dir, "report", "k6.log"), "utf8");
      expect(k6Log).toContain("response body exceeded 1 MiB (the harness's cap)");
      expect(run.stdout).toMatch(/FAILED/);
    },
    LIMIT_MS,
  );
});
