import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "./run-cli.ts";

// A developer's shell often exports the harness's variables: a spawned test must see none of them but its own.
const LEFT_OVER = {
  EVENT_API_ISSUER: "http://127.0.0.1:9/left-over-issuer",
  EVENT_API_CREDENTIALS_FILE: "/left-over/credentials.json",
  EVENT_HARNESS_BASELINE: "/left-over/baseline.json",
  EVENT_API_BASE_URL: "http://127.0.0.1:9/left-over-api",
};

const saved = new Map<string, string | undefined>();
afterEach(() => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  saved.clear();
});

describe("runCli", () => {
  it("leaves the developer's EVENT_API_* and EVENT_HARNESS_* variables out, and passes the test's own", async () => {
    for (const [name, value] of Object.entries(LEFT_OVER)) {
      saved.set(name, process.env[name]);
      process.env[name] = value;
    }
    const dir = await mkdtemp(join(tmpdir(), "eh-run-cli-"));
    try {
      // In place of the CLI: a script that prints the harness's variables it was given.
      const script = join(dir, "print-env.mjs");
      await writeFile(
        script,
        "const seen = Object.entries(process.env).filter(([n, v]) => /^EVENT_/.test(n) && v !== '');\nprocess.stdout.write(JSON.stringify(Object.fromEntries(seen)));\n",
      );
      const run = await runCli([], { EVENT_API_CLIENT_ID: "the-test's-own" }, 10_000, script);
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({ EVENT_API_CLIENT_ID: "the-test's-own" });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
