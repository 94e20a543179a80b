import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { PassThrough } from "node:stream";
import { request } from "undici";
import type { CommandIo } from "../../../cli/command.ts";
import { runContractSuite } from "../../../cli/contract/run-contract-suite.ts";
import { UsageError } from "../../../core/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

function ioWith(signal: AbortSignal) {
  const stdout = new PassThrough().setEncoding("utf8");
  const stderr = new PassThrough().setEncoding("utf8");
  const io: CommandIo = { stdout, stderr, env: {}, signal };
  return { io, stdout: () => String(stdout.read() ?? ""), stderr: () => String(stderr.read() ?? "") };
}

describe("runContractSuite", () => {
  it("runs a contract interrupted before its checks to its reports (exit 3), and closes the embedded sandbox", async ({
    tmpDir,
  }) => {
    const controller = new AbortController();
    controller.abort(new Error("received SIGTERM"));
    const out = ioWith(controller.signal);
    const code = await runContractSuite(
      { "report-dir": tmpDir, only: ["token.issued", "bearer.missing"] },
      out.io,
    );
    expect(code).toBe(3);
    const results = JSON.parse(await readFile(path.join(tmpDir, "results.json"), "utf8")) as {
      aborted: string;
      target: { baseUrl: string; embedded: boolean };
      checks: { id: string; status: string }[];
    };
    expect(results.aborted).toBe("interrupted (received SIGTERM)");
    expect(results.checks.map((check) => [check.id, check.status])).toEqual([
      ["token.issued", "ERROR"],
      ["bearer.missing", "ERROR"],
    ]);
    expect(results.target.embedded).toBe(true);
    expect(out.stderr()).toMatch(/^Contract fast profile against http:\/\/127\.0\.0\.1:\d+\/api /);
    // The embedded sandbox is gone once the command returns.
    await expect(request(`${results.target.baseUrl}/events`, { method: "POST" })).rejects.toMatchObject({
      code: "ECONNREFUSED",
    });
  });

  it("refuses bad options before it starts anything or writes a report", async ({ tmpDir }) => {
    const out = ioWith(new AbortController().signal);
    const reportDir = path.join(tmpDir, "reports");
    await expect(
      runContractSuite({ "report-dir": reportDir, only: ["nothing"] }, out.io),
    ).rejects.toBeInstanceOf(UsageError);
    expect(await readdir(tmpDir)).toEqual([]);
    expect(out.stderr()).toBe("");
  });
});
