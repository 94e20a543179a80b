import { readdir, readFile } from "node:fs/promises";
import { request } from "undici";
import { expect, vi } from "vitest";

/** k6's exit code when a signal stopped it (go.k6.io/k6/v2/errext/exitcodes ExternalAbort). */
export const K6_EXTERNAL_ABORT = 105;
/** k6's ExecutionStatus "running": the scenarios run, and SIGINT ends k6 gracefully with exit 105. */
const RUNNING = 7;

export interface K6Process {
  readonly pid: number;
  readonly cmdline: string;
}

/** This process's `k6 run` children (Linux /proc): pid and command line. */
export async function k6Children(): Promise<K6Process[]> {
  const found: K6Process[] = [];
  for (const entry of await readdir("/proc").catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (ppid !== process.pid) continue;
    const cmdline = (await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "")).replace(/\0/g, " ");
    if (/\bk6\b.* run /.test(cmdline)) found.push({ pid: Number(entry), cmdline });
  }
  return found;
}

/** Waits until `count` k6 children exist, and returns them. */
export async function untilK6Children(count: number, timeout = 60_000): Promise<K6Process[]> {
  let children: K6Process[] = [];
  await vi.waitFor(
    async () => {
      children = await k6Children();
      expect(children.length).toBeGreaterThanOrEqual(count);
    },
    { timeout, interval: 20 },
  );
  return children;
}

export function alive(pid: number): boolean {
  // Pid 0 would mean the whole process group, which is always alive.
  if (pid <= 0) throw new RangeError(`not a child's pid: ${pid}`);
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The REST API address a k6 child was started with (`--address HOST:PORT`). */
export function k6Address(child: K6Process): string {
  const address = /--address (\S+)/.exec(child.cmdline)?.[1];
  if (address === undefined) throw new Error(`k6 ${child.pid} has no --address: ${child.cmdline}`);
  return address;
}

/** Waits until the k6 whose REST API is at `address` runs its scenarios (GET /v1/status): start-up seen, not guessed. */
export async function untilK6Running(address: string, timeout = 60_000): Promise<void> {
  await vi.waitFor(
    async () => {
      const response = await request(`http://${address}/v1/status`, {
        headersTimeout: 2_000,
        bodyTimeout: 2_000,
      });
      const body = (await response.body.json()) as {
        data?: { attributes?: { status?: number; paused?: boolean } };
      };
      expect(body.data?.attributes).toMatchObject({ status: RUNNING, paused: false });
    },
    { timeout, interval: 50 },
  );
}
