import { readdir } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import { beforeAll } from "vitest";
import { loadCommand } from "../../../cli/commands/load.ts";
import { ensureK6 } from "../../../k6-tooling/binary/k6-binary.ts";
import { it as base, describe, expect } from "../../support/fixtures.ts";
import type { Loopback } from "../../support/loopback.ts";
import { listenOnLoopback } from "../../support/loopback.ts";
import { runInProcess } from "../../support/run-in-process.ts";

/** A target only the cluster could reach: here, a listener that counts every connection and answers none. */
let connections = 0;

beforeAll(async () => {
  await ensureK6({ env: process.env, stderr: process.stderr });
}, 600_000);
// biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
const it = base.extend("target", { scope: "file" }, async ({}, { onCleanup }) => {
  const target = await listenOnLoopback(
    createServer((socket) => {
      connections += 1;
      socket.destroy();
    }),
  );
  onCleanup(() => target.close());
  return target;
});

const env = () => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  EVENT_API_CLIENT_SECRET: "cluster-only-secret-value",
  ...(process.env.K6_BIN ? { K6_BIN: process.env.K6_BIN } : {}),
});
const targetArgs = (target: Loopback) => [
  "--auth-url",
  `${target.url}/auth`,
  "--base-url",
  `${target.url}/api`,
  "--client-id",
  "cluster-client",
];

describe("load --k6-operator never contacts the target", () => {
  it("writes the manifests for a target this machine cannot reach, saying the pre-run check is left out", async ({
    tmpDir: work,
    target,
  }) => {
    const dir = path.join(work, "sustained");
    const run = await runInProcess(
      loadCommand,
      ["sustained", "--duration", "10s", "--k6-operator", dir, ...targetArgs(target)],
      env(),
    );
    expect(run.stderr).toContain(
      "event-harness: the pre-run token check is left out: the manifests are written without contacting the target",
    );
    expect(run.stderr).toContain("expires_in not asked");
    expect(run.stderr).not.toContain("undefined");
    expect(run.code).toBe(0);
    expect(await readdir(path.join(dir, "manifests"))).toContain("testrun.json");
    expect(connections).toBe(0);
  }, 180_000);

  it("asks idle-gap for --expires-in, which the pre-run check would have learned", async ({
    tmpDir: work,
    target,
  }) => {
    const run = await runInProcess(
      loadCommand,
      ["idle-gap", "--k6-operator", path.join(work, "idle-no"), ...targetArgs(target)],
      env(),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("idle-gap with --k6-operator needs --expires-in");
    const planned = await runInProcess(
      loadCommand,
      ["idle-gap", "--expires-in", "60", "--k6-operator", path.join(work, "idle"), ...targetArgs(target)],
      env(),
    );
    expect(planned.stderr).not.toContain("Error");
    expect(planned.code).toBe(0);
    expect(connections).toBe(0);
  }, 180_000);

  it("takes --expires-in only with --k6-operator: a run learns expires_in from the target", async ({
    target,
  }) => {
    const run = await runInProcess(
      loadCommand,
      ["sustained", "--expires-in", "60", ...targetArgs(target)],
      env(),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--expires-in applies only with --k6-operator");
  });
});
