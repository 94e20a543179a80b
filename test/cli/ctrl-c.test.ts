import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const CLI = fileURLToPath(new URL("../../bin/event-harness.js", import.meta.url));

describe("Ctrl+C", () => {
  it("sent to the whole process group, as a terminal does, ends an interrupted command with exit 3, not 130", async () => {
    // Its own process group, so the group signal reaches the CLI and nothing of the test runner.
    const child = spawn(process.execPath, [CLI, "generate", "--count", "10000000", "--seed", "1"], {
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const limit = setTimeout(() => child.kill("SIGKILL"), 60_000);
    // The first line out means the command is running: only then is the interruption the one under test.
    child.stdout.once("data", () => {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGINT");
      child.stdout.resume();
    });
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.once("close", (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
    );
    clearTimeout(limit);
    expect(signal).toBeNull();
    expect(code, stderr).toBe(3);
    expect(stderr).toMatch(/^event-harness generate: interrupted after generating \d+ line\(s\)\n$/);
  });
});
