import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect } from "vitest";
import { it } from "../../support/fixtures.ts";

const CLI = fileURLToPath(new URL("../../../bin/event-harness.js", import.meta.url));
const LIMIT_MS = 60_000;

describe("contract on Ctrl+C or SIGTERM", () => {
  it.for(["SIGINT", "SIGTERM"] as const)(
    "%s cuts the sliding-expiry probes short, writes its reports saying ABORTED, exit 3",
    { timeout: LIMIT_MS + 5_000 },
    async (signal, { tmpDir }) => {
      const dir = path.join(tmpDir, signal);
      // expires_in 30 s: uninterrupted, the probes would wait about 32 s.
      const child = spawn(
        process.execPath,
        [CLI, "contract", "--profile", "full", "--sandbox-expires-in", "30", "--report-dir", dir],
        { stdio: ["ignore", "pipe", "pipe"] },
      );
      let stdout = "";
      let stderr = "";
      let sent = false;
      child.stderr.setEncoding("utf8").on("data", (data: string) => {
        stderr += data;
        // Once a lifetime probe says it is waiting, the run is in the middle of its longest part.
        if (!sent && /lifetime\.|waiting|idle/i.test(data)) {
          sent = true;
          child.kill(signal);
        }
      });
      child.stdout.setEncoding("utf8").on("data", (data: string) => {
        stdout += data;
      });
      const limit = setTimeout(() => child.kill("SIGKILL"), LIMIT_MS);
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      clearTimeout(limit);
      expect(sent, stderr).toBe(true);
      expect(code, stderr).toBe(3);
      const results = JSON.parse(await readFile(path.join(dir, "results.json"), "utf8")) as {
        verdict: string;
        aborted: string;
        checks: { id: string; status: string; message: string }[];
      };
      // ABORTED in every output, with the signal that stopped it; never PASSED.
      expect(stdout).toMatch(new RegExp(`^Verdict: ABORTED \\(interrupted \\(received ${signal}\\)\\)`, "m"));
      expect(results.verdict).toBe("aborted");
      expect(results.aborted).toBe(`interrupted (received ${signal})`);
      const junit = await readFile(path.join(dir, "junit.xml"), "utf8");
      expect(junit).toContain(`<error message="ABORTED: interrupted (received ${signal})" type="aborted"`);
      const summary = await readFile(path.join(dir, "summary.md"), "utf8");
      expect(summary).toMatch(/^## ⏹️ Aborted: interrupted/);
      const lifetime = results.checks.filter((check) => check.id.startsWith("lifetime."));
      expect(lifetime.length).toBeGreaterThan(0);
      for (const check of lifetime) {
        expect(check.status, check.message).toBe("ERROR");
        expect(check.message).toMatch(/interrupted/);
      }
      expect(results.checks.some((check) => check.status === "FAIL")).toBe(false);
    },
  );
});
