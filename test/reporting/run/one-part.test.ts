import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { RunOutcome } from "../../../reporting/run/index.ts";
import { writeRunReport } from "../../../reporting/run/index.ts";
import { it as base, describe, expect } from "../../support/fixtures.ts";
import { CONTRACT_CHECKS } from "./report-fixture.ts";

/** A run of one part whose one check passed: every count the report says is one. */
const it = base
  .extend("setup", { scope: "file" }, async ({ fileDir: dir }) => {
    const check = CONTRACT_CHECKS.find((candidate) => candidate.id === "token.issued");
    await mkdir(path.join(dir, "contract"));
    await writeFile(
      path.join(dir, "contract", "results.json"),
      JSON.stringify({ suite: "contract (fast)", durationMs: 42, checks: [check] }),
    );
    const run: RunOutcome = {
      tool: {
        name: "event-api-harness",
        version: "0.1.0",
        commit: "0123456789abcdef0123456789abcdef01234567",
      },
      runId: "20270115T080000Z-one",
      startedAt: "2027-01-15T08:00:00.000Z",
      durationMs: 1_000,
      verdict: "passed",
      target: { embedded: true },
      parts: [
        {
          id: "contract",
          kind: "contract",
          title: "Contract suite (fast profile)",
          command: "event-harness contract --only token.issued",
          verdict: "passed",
          exitCode: 0,
          startedAt: "2027-01-15T08:00:00.000Z",
          durationMs: 1_000,
        },
      ],
    };
    await writeRunReport(dir, run, "reports/x/index.html");
    const html = await readFile(path.join(dir, "index.html"), "utf8");
    const markdown = await readFile(path.join(dir, "summary.md"), "utf8");
    return { html, markdown };
  })
  .extend("html", { scope: "file" }, async ({ setup }) => setup.html)
  .extend("markdown", { scope: "file" }, async ({ setup }) => setup.markdown);

describe("the run report of one part with one check", () => {
  it("says 1 of 1 part passed and 1 check, in the page and in summary.md", ({ html, markdown }) => {
    expect(html).toContain("1 of 1 part passed.");
    expect(html).toContain("1 check, all PASS");
    expect(markdown).toMatch(/^## .* — 1 of 1 part passed/m);
    expect(markdown).toContain("1 check: ");
  });

  it("names the harness's version and the commit it was packed from", ({ html }) => {
    expect(html).toContain("<span>event-api-harness 0.1.0, commit 0123456789ab</span>");
  });
});
