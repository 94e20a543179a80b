import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const CLI = fileURLToPath(new URL("../../../scripts/event-harness.js", import.meta.url));

function runCli(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (data: string) => {
      stdout += data;
    });
    child.stderr.setEncoding("utf8").on("data", (data: string) => {
      stderr += data;
    });
    const limit = setTimeout(() => child.kill("SIGKILL"), 25_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(limit);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("event-harness run (smoke flow)", () => {
  it("starts the sandbox, gets a token, posts an event that is accepted and reads it back; exit 0", async () => {
    const { code, stdout, stderr } = await runCli(["run"]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /auth URL http:\/\/127\.0\.0\.1:\d+\/auth, base URL http:\/\/127\.0\.0\.1:\d+\/api/,
    );
    expect(stdout).toContain(
      "sandbox-demo / sandbox-demo-secret (throwaway credential of the local sandbox)",
    );
    expect(stdout).toMatch(/Token: 200, ES256 JWT with kid, \d+ chars, expires_in 300/);
    expect(stdout).toMatch(/Event: 202 Accepted, EventRef evt-[0-9a-f-]{36}/);
    expect(stdout).toContain("Smoke flow passed: the accepted event was stored and read back.");
    // The token itself never appears: no JWT-looking string in the output.
    expect(stdout).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}/);
  });

  it("exits 1 with a clear message when a step fails", async () => {
    const { code, stdout, stderr } = await runCli(["run", "--fault", "events-5xx"]);
    expect(code).toBe(1);
    expect(stdout).toContain("Faults: events-5xx");
    expect(stderr).toMatch(/smoke flow failed: POST \/events answered 500, expected 202/);
  });

  it("exits 2 for an unknown fault", async () => {
    const { code, stderr } = await runCli(["run", "--fault", "nope"]);
    expect(code).toBe(2);
    expect(stderr).toContain("unknown fault 'nope'");
  });
});
