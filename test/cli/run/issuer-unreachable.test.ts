import { readFile } from "node:fs/promises";
import path from "node:path";
import { runCommand } from "../../../cli/commands/run.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { markdownNodes, markdownTree } from "../../support/markdown-tree.ts";
import { runInProcess } from "../../support/run-in-process.ts";

/** Nothing listens on port 1: the metadata request is refused at once. */
const ISSUER = "http://127.0.0.1:1/realms/unreachable";
const SECRET = "unreachable-issuer-secret-71c9";

describe("run --issuer whose metadata nobody answers for", () => {
  it("is could-not-test (exit 3) and still leaves its run.json, summary.md and index.html", async ({
    tmpDir: work,
  }) => {
    const dir = path.join(work, "run");
    const run = await runInProcess(
      runCommand,
      [
        "--issuer",
        ISSUER,
        "--base-url",
        "http://127.0.0.1:1/api",
        "--client-id",
        "unreachable-client",
        "--timeout",
        "2",
        "--report-dir",
        dir,
      ],
      { EVENT_API_CLIENT_SECRET: SECRET },
    );
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain(`could not read the metadata of the issuer ${ISSUER}`);
    expect(run.stdout.split("\n")[0]).toContain(`against the target of the issuer ${ISSUER}`);
    expect(run.stdout).toMatch(/^Verdict: COULD NOT DECIDE \(could not test the target: see above\)/m);
    expect(run.stdout).not.toContain("embedded sandbox");

    const record = JSON.parse(await readFile(path.join(dir, "run.json"), "utf8"));
    expect(record).toMatchObject({
      verdict: "undecided",
      couldNotTest: expect.stringContaining(`could not read the metadata of the issuer ${ISSUER}`),
      target: { embedded: false, issuer: ISSUER },
    });
    expect(record.parts.length).toBeGreaterThan(0);
    for (const part of record.parts) expect(part).toMatchObject({ verdict: "skipped", exitCode: null });

    const summary = await readFile(path.join(dir, "summary.md"), "utf8");
    const code = markdownNodes(markdownTree(summary)).flatMap((n) =>
      n.type === "inlineCode" ? [n.value] : [],
    );
    expect(code).toContain(ISSUER);
    expect(await readFile(path.join(dir, "index.html"), "utf8")).toContain('data-verdict="undecided"');
    expect(run.stdout + run.stderr + JSON.stringify(record) + summary).not.toContain(SECRET);
  }, 60_000);
});
