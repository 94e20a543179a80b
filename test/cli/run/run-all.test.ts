import { readFile } from "node:fs/promises";
import path from "node:path";
import { runAll } from "../../../cli/run/index.ts";
import { capturedIo } from "../../support/command-io.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { startScriptedServer } from "../../support/scripted-server.ts";
import { filesWithContent, formsIn, secretForms } from "../../support/secret-forms.ts";

interface RunJson {
  readonly verdict: string;
  readonly couldNotTest?: string;
  readonly target: { readonly embedded: boolean; readonly clientAuth?: string };
  readonly parts: ReadonlyArray<{
    readonly id: string;
    readonly verdict: string;
    readonly exitCode: number | null;
    readonly note?: string;
    readonly command: string;
  }>;
}

async function runJson(dir: string): Promise<RunJson> {
  return JSON.parse(await readFile(path.join(dir, "run.json"), "utf8")) as RunJson;
}

/** The run's own lines: a part's output is indented under its heading. */
function ownLines(stdout: string): string[] {
  return stdout.split("\n").filter((line) => line !== "" && !line.startsWith("│ "));
}

describe("runAll", () => {
  it("runs the parts asked for, then writes run.json and ends the log with the verdict", async ({
    tmpDir,
  }) => {
    const { io, stdout: out, stderr: err } = capturedIo();
    const code = await runAll({ parts: "rotation", "report-dir": tmpDir }, io);
    expect(code, err()).toBe(0);
    const lines = ownLines(out());
    expect(lines[0]).toMatch(/^event-harness run \d{8}T\d{6}Z-[0-9a-f]{4}: rotation against the /);
    expect(lines).toContainEqual(expect.stringMatching(/^━━ \[1\/1\] .+ ━━$/));
    expect(lines.some((line) => /^→ rotation: passed in /.test(line))).toBe(true);
    expect(lines.at(-1)).toMatch(/^Verdict: /);
    const run = await runJson(tmpDir);
    expect(run.verdict).toBe("passed");
    expect(run.target).toEqual({ embedded: true });
    expect(run.parts.map((part) => [part.id, part.verdict, part.exitCode])).toEqual([
      ["rotation", "passed", 0],
    ]);
  });

  it("runs no part when the preflight cannot reach the target, and says so at the end (exit 3)", async ({
    tmpDir,
  }) => {
    const closed = await startScriptedServer(() => ({ status: 200 }));
    await closed.close();
    const env = {
      EVENT_API_AUTH_URL: `${closed.url}/auth`,
      EVENT_API_BASE_URL: `${closed.url}/api`,
      EVENT_API_CLIENT_ID: "ci-client",
      EVENT_API_CLIENT_SECRET: "run-all-secret-9e2b",
    };
    const { io, stdout: out, stderr: err } = capturedIo(env);
    const code = await runAll({ parts: "contract,rotation", "report-dir": tmpDir }, io);
    expect(code).toBe(3);
    expect(err()).toMatch(/^event-harness: cannot reach the token endpoint .*connection refused/m);
    const lines = ownLines(out());
    expect(lines.some((line) => line.startsWith("━━ ["))).toBe(false);
    expect(lines).toContainEqual(
      expect.stringMatching(/^Could not test the target: cannot reach the token endpoint /),
    );
    const run = await runJson(tmpDir);
    expect(run.couldNotTest).toMatch(/^cannot reach the token endpoint /);
    expect(run.parts.map((part) => [part.id, part.verdict, part.note]).sort()).toEqual([
      ["contract", "skipped", "not run: the preflight could not test the target"],
      ["rotation", "skipped", "not run: the preflight could not test the target"],
    ]);
  });

  it("runs the parts with the client authentication the preflight found working, and leaks no secret", async ({
    sandbox,
    targetEnv,
    tmpDir,
  }) => {
    const running = await sandbox(["token-basic-only"]);
    const env = targetEnv(running);
    const { io, stderr: err } = capturedIo(env);
    await runAll({ parts: "rotation", "report-dir": tmpDir }, io);
    expect(err()).toContain("work with --client-auth basic: going on with basic");
    const run = await runJson(tmpDir);
    expect(run.target).toMatchObject({ embedded: false, clientAuth: "basic" });
    expect(run.parts[0]?.command).toContain("--client-auth basic");
    const secret = env.EVENT_API_CLIENT_SECRET ?? "";
    const leaks: string[] = [];
    for (const [file, content] of await filesWithContent(tmpDir)) {
      leaks.push(...formsIn(content, secretForms(secret), file));
    }
    expect(leaks).toEqual([]);
  });
});
