import { stat } from "node:fs/promises";
import path from "node:path";
import { beforeAll, vi } from "vitest";
import { loadCommand } from "../../../cli/commands/load.ts";
import { ensureK6 } from "../../../k6-tooling/binary/k6-binary.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { k6Address, untilK6Children, untilK6Running } from "../../support/k6-processes.ts";
import type { ListeningSocket } from "../../support/listening-sockets.ts";
import { isLoopback, listeningSocketsOf } from "../../support/listening-sockets.ts";
import { runInProcess } from "../../support/run-in-process.ts";

beforeAll(async () => {
  await ensureK6({ env: process.env, stderr: process.stderr });
}, 600_000);

describe("a load run listens on loopback only", () => {
  it("k6's web dashboard and REST API are bound to 127.0.0.1 while k6 runs, and dashboard.html is still written", async ({
    tmpDir,
  }) => {
    const reportDir = path.join(tmpDir, "run");
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...(process.env.K6_BIN ? { K6_BIN: process.env.K6_BIN } : {}),
    };
    const running = runInProcess(
      loadCommand,
      ["sustained", "--duration", "6s", "--rate", "2", "--report-dir", reportDir],
      env,
    );
    const [k6] = await untilK6Children(1);
    if (k6 === undefined) throw new Error("no k6 child");
    await untilK6Running(k6Address(k6));
    // Read the socket table while k6 runs its scenario: the dashboard serves for the whole run.
    let sockets: ListeningSocket[] = [];
    await vi.waitFor(
      async () => {
        sockets = await listeningSocketsOf(k6.pid);
        expect(sockets.length).toBeGreaterThanOrEqual(2);
      },
      { timeout: 10_000, interval: 100 },
    );
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(sockets.filter((socket) => !isLoopback(socket.address))).toEqual([]);
    expect((await stat(path.join(reportDir, "dashboard.html"))).size).toBeGreaterThan(0);
  }, 120_000);
});
