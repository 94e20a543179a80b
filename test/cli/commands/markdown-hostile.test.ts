import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Command } from "../../../cli/command.ts";
import { contractCommand } from "../../../cli/commands/contract.ts";
import { runCommand } from "../../../cli/commands/run.ts";
import { describe, expect, test } from "../../support/fixtures.ts";
import type { MarkdownHostileApi } from "../../support/markdown-hostile-api.ts";
import { LIVE_MARKERS, startMarkdownHostileApi } from "../../support/markdown-hostile-api.ts";
import { liveNodes, markdownNodes, markdownTree, textOf } from "../../support/markdown-tree.ts";
import { runInProcess } from "../../support/run-in-process.ts";

// A summary.md is a CI job summary: what an API writes into its answers is shown there, never rendered live.
const CLIENT = { clientId: "markdown-client", secret: "markdown-client-secret-71" };

/** `api`: the hostile API, started once for the file. */
const it = test.extend(
  "api",
  { scope: "file" },
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
  async ({}, { onCleanup }) => {
    const api = await startMarkdownHostileApi(CLIENT);
    onCleanup(() => api.close());
    return api;
  },
);

async function summaryOf(
  api: MarkdownHostileApi,
  reports: string,
  command: Command,
  extra: readonly string[],
): Promise<string> {
  const run = await runInProcess(
    command,
    [
      "--auth-url",
      api.authUrl,
      "--base-url",
      api.baseUrl,
      "--client-id",
      CLIENT.clientId,
      "--timeout",
      "5",
      ...extra,
      "--report-dir",
      reports,
    ],
    { EVENT_API_CLIENT_SECRET: CLIENT.secret },
  );
  expect(run.code, run.stderr).toBe(1);
  return readFile(join(reports, "summary.md"), "utf8");
}

/** Every link, image or HTML node that carries a target's text. */
function liveTargetText(markdown: string): string[] {
  return liveNodes(markdown)
    .map((node) => JSON.stringify(node))
    .filter((node) => LIVE_MARKERS.some((marker) => node.includes(marker)));
}

function expectShownNotLive(markdown: string): void {
  expect(liveTargetText(markdown)).toEqual([]);
  // Shown: the target's words reach the reader as text, a pipe inside a table cell included.
  const text = textOf(markdownTree(markdown));
  expect(text).toContain("[Release approved](javascript:alert(2))");
  expect(text).toContain("[Release approved](https://evil.example/ok)");
  expect(text).toContain("<img src=x onerror=alert(3)>");
  const cells = markdownNodes(markdownTree(markdown)).filter((node) => node.type === "tableCell");
  expect(cells.some((cell) => textOf(cell).includes("left|right"))).toBe(true);
}

describe("Markdown a target writes into its answers stays text in summary.md", () => {
  it("contract", async ({ api, tmpDir }) => {
    expectShownNotLive(await summaryOf(api, tmpDir, contractCommand, []));
  });

  it("run, whose summary folds the contract's in", async ({ api, tmpDir }) => {
    const markdown = await summaryOf(api, tmpDir, runCommand, ["--parts", "contract", "--profile", "fast"]);
    expect(markdown).toContain("<details>");
    expectShownNotLive(markdown);
  });
});
