// The entry is the process itself (argv, exit code, signals): these tests run it as the real CLI does.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { cliEnv, runCli } from "../support/run-cli.ts";

const CLI = fileURLToPath(new URL("../../bin/event-harness.js", import.meta.url));

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Starts the sandbox command, sends `signal` once it has said where it listens; killed after 30 s whatever happens. */
function stopSandboxWith(signal: NodeJS.Signals): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "sandbox", "--port", "0", "--json"], {
      env: cliEnv(process.env, {}),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let sent = false;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (!sent && stdout.includes("\n")) {
        sent = true;
        child.kill(signal);
      }
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const limit = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("error", reject);
    child.on("close", (code, ended) => {
      clearTimeout(limit);
      resolve({ code, signal: ended, stdout, stderr });
    });
  });
}

describe("the CLI's entry", () => {
  it("hands argv to main and exits with its code", async () => {
    const run = await runCli(["no-such-command"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no-such-command/);
    expect(run.stdout).toBe("");
  });

  it.each(["SIGINT", "SIGTERM"] as const)(
    "turns %s into the command's abort: it stops cleanly with exit 0",
    async (signal) => {
      const ended = await stopSandboxWith(signal);
      expect(ended).toMatchObject({ code: 0, signal: null, stderr: "" });
      const [line, rest] = ended.stdout.split("\n");
      expect(JSON.parse(line ?? "")).toHaveProperty("base_url");
      expect(rest).toBe("");
    },
  );
});
