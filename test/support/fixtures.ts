import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test as base } from "vitest";
import type { FaultName, RunningSandbox, SandboxOptions } from "../../sandbox/index.ts";
import { startSandbox } from "../../sandbox/index.ts";

/** What a test asks of `sandbox`: its faults, or any start options (on port 0 whatever they say). */
export type SandboxRequest = readonly FaultName[] | Omit<SandboxOptions, "port">;

function isFaultList(request: SandboxRequest): request is readonly FaultName[] {
  return Array.isArray(request);
}

/** A target given as a user gives it: the URLs and the client id, and the secret in the environment. */
export interface TargetSettings {
  readonly authUrl: string;
  readonly baseUrl: string;
  readonly clientId?: string;
  readonly clientSecret?: string;
}

/**
 * The EVENT_API_* variables naming `target` (a started sandbox names its first client), the way a user sets them;
 * `secret` replaces the client's secret, e.g. with a wrong one.
 */
export function targetEnv(target: RunningSandbox | TargetSettings, secret?: string): NodeJS.ProcessEnv {
  const client = "clients" in target ? target.clients[0] : target;
  const clientSecret = secret ?? client?.clientSecret;
  return {
    EVENT_API_AUTH_URL: target.authUrl,
    EVENT_API_BASE_URL: target.baseUrl,
    ...(client?.clientId === undefined ? {} : { EVENT_API_CLIENT_ID: client.clientId }),
    ...(clientSecret === undefined ? {} : { EVENT_API_CLIENT_SECRET: clientSecret }),
  };
}

/**
 * The tests' shared fixtures; each is set up only for a test that names it and torn down after it, pass or fail:
 * - `tmpDir`: a fresh temporary directory, removed with everything in it;
 * - `fileDir`: one temporary directory a file's tests share (what a file sets up once, e.g. an expensive run whose
 *   output several tests read), removed after the file's last test;
 * - `sandbox(request)`: starts a sandbox on port 0 with those faults or options, closed after the test;
 * - `targetEnv(sandbox, secret?)`: the EVENT_API_* variables of a target (see `targetEnv` above).
 */
export const test = base
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
  .extend("tmpDir", async ({}, { onCleanup }) => {
    const dir = await mkdtemp(path.join(tmpdir(), "eah-test-"));
    onCleanup(() => rm(dir, { recursive: true, force: true }));
    return dir;
  })
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
  .extend("fileDir", { scope: "file" }, async ({}, { onCleanup }) => {
    const dir = await mkdtemp(path.join(tmpdir(), "eah-test-file-"));
    onCleanup(() => rm(dir, { recursive: true, force: true }));
    return dir;
  })
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
  .extend("sandbox", async ({}, { onCleanup }) => {
    const started: RunningSandbox[] = [];
    onCleanup(async () => {
      await Promise.all(started.map((sandbox) => sandbox.close()));
    });
    return async (request: SandboxRequest = []): Promise<RunningSandbox> => {
      const options: SandboxOptions = isFaultList(request) ? { faults: request } : request;
      const sandbox = await startSandbox({ ...options, port: 0 });
      started.push(sandbox);
      return sandbox;
    };
  })
  .extend("targetEnv", async () => targetEnv);

export const it = test;
export { describe, expect } from "vitest";
