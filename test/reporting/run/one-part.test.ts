import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunOutcome } from "../../../reporting/run/index.ts";
import { writeRunReport } from "../../../reporting/run/index.ts";
import { CONTRACT_CHECKS } from "./report-fixture.ts";

let dir: string;
let html: string;
let markdown: string;

/** A run of one part whose one check passed: every count the report says is one. */
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "eah-one-part-"));
  const check = CONTRACT_CHECKS.find((candidate) => candidate.id === "token.issued");
  await mkdir(path.join(dir, "contract"));
  await writeFile(
    path.join(dir, "contract", "results.json"),
    JSON.stringify({ suite: "contract (fast)", durationMs: 42, checks: [check] }),
  );
  const run: RunOutcome = {
    tool: { name: "event-api-harness", version: "0.1.0", commit: "0123456789abcdef0123456789abcdef01234567" },
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
  html = await readFile(path.join(dir, "index.html"), "utf8");
  markdown = await readFile(path.join(dir, "summary.md"), "utf8");
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the run report of one part with one check", () => {
  it("says 1 of 1 part passed and 1 check, in the page and in summary.md", () => {
    expect(html).toContain("1 of 1 part passed.");
    expect(html).toContain("1 check, all PASS");
    expect(markdown).toMatch(/^## .* — 1 of 1 part passed/m);
    expect(markdown).toContain("1 check: ");
  });

  it("names the harness's version and the commit it was packed from", () => {
    expect(html).toContain("<span>event-api-harness 0.1.0, commit 0123456789ab</span>");
  });
});
