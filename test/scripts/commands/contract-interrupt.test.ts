import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const CLI = fileURLToPath(new URL("../../../scripts/event-harness.js", import.meta.url));
const LIMIT_MS = 60_000;

let reports: string;
beforeAll(async () => {
  reports = await mkdtemp(path.join(tmpdir(), "eah-contract-interrupt-"));
});
afterAll(async () => {
  await rm(reports, { recursive: true, force: true });
});

describe("contract on Ctrl+C", () => {
  it(
    "cuts the sliding-expiry probes short, writes its reports, and cannot decide (exit 3)",
    async () => {
      // expires_in 30 s: uninterrupted, the probes would wait about 32 s.
      const child = spawn(
        process.execPath,
        [CLI, "contract", "--profile", "full", "--sandbox-expires-in", "30", "--report-dir", reports],
        { stdio: ["ignore", "pipe", "pipe"] },
      );
      let stderr = "";
      let sent = false;
      child.stderr.setEncoding("utf8").on("data", (data: string) => {
        stderr += data;
        // Once a lifetime probe says it is waiting, the run is in the middle of its longest part.
        if (!sent && /lifetime\.|waiting|idle/i.test(data)) {
          sent = true;
          child.kill("SIGINT");
        }
      });
      child.stdout.resume();
      const limit = setTimeout(() => child.kill("SIGKILL"), LIMIT_MS);
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      clearTimeout(limit);
      expect(sent, stderr).toBe(true);
      expect(code, stderr).toBe(3);
      const results = JSON.parse(await readFile(path.join(reports, "results.json"), "utf8")) as {
        checks: { id: string; status: string; message: string }[];
      };
      const lifetime = results.checks.filter((check) => check.id.startsWith("lifetime."));
      expect(lifetime.length).toBeGreaterThan(0);
      for (const check of lifetime) {
        expect(check.status, check.message).toBe("ERROR");
        expect(check.message).toMatch(/interrupted/);
      }
      expect(results.checks.some((check) => check.status === "FAIL")).toBe(false);
    },
    LIMIT_MS + 5_000,
  );
});
