import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { K6_TOOL_DIR, whichOnPath } from "../../k6-tooling/binary/k6-binary.ts";

const go = await whichOnPath("go", process.env);

// The harness's own k6 extensions (the body cap, the samples output) have Go tests of their own; Go builds the
// harness's k6, so every machine that builds it runs them too.
describe.skipIf(go === undefined)("tools/k6's Go tests", () => {
  it("pass (go test ./... in tools/k6)", async () => {
    const { stdout } = await promisify(execFile)(go as string, ["test", "./..."], {
      cwd: K6_TOOL_DIR,
      env: process.env,
      timeout: 600_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    expect(stdout).toMatch(/^ok\s+event-api-harness\/tools\/k6\/harness\b/m);
    expect(stdout).toMatch(/^ok\s+event-api-harness\/tools\/k6\/samples\b/m);
  }, 600_000);
});
