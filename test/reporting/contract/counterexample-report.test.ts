import { XMLParser } from "fast-xml-parser";
import type { CheckResult } from "../../../contracts/index.ts";
import type { ContractRun } from "../../../reporting/contract/index.ts";
import { renderJunitXml } from "../../../reporting/contract/junit-xml.ts";
import { renderSummaryMarkdown } from "../../../reporting/contract/summary-markdown.ts";
import { describe, expect, test } from "../../support/fixtures.ts";
import type { InterposingServer } from "../../support/interposing-server.ts";
import { startInterposingServer } from "../../support/interposing-server.ts";
import { markdownNodes, markdownTree } from "../../support/markdown-tree.ts";
import { runPropertyCheck, sandboxTarget } from "../../support/property-probe.ts";
import { xmlProblems } from "../../support/xml-document.ts";

const SECRET = "sandbox-demo-secret";

function runOf(checks: CheckResult[]): ContractRun {
  return {
    tool: { name: "event-api-harness", version: "0.0.0" },
    suite: "contract (full)",
    profile: "full",
    seed: 7,
    startedAt: "2026-01-01T00:00:00.000Z",
    durationMs: 1000,
    target: {
      tokenUrl: "http://a/oauth/token",
      baseUrl: "http://b",
      clientId: "sandbox-demo",
      audience: "http://b",
      clientAuth: "post",
      insecure: false,
      embedded: true,
    },
    checks,
  };
}

/** Every code block's text in the summary, as a GitHub Markdown reader parses it. */
function codeBlocks(markdown: string): string[] {
  return markdownNodes(markdownTree(markdown))
    .filter((node) => node.type === "code")
    .map((node) => (node as { value: string }).value);
}

/** The system-out of every test case, as an XML parser reads the JUnit file. */
function junitOutputs(xml: string): string[] {
  const parsed = new XMLParser({ ignoreAttributes: false }).parse(xml) as {
    testsuites: { testsuite: Array<{ testcase: unknown }> | { testcase: unknown } };
  };
  const suites = [parsed.testsuites.testsuite].flat();
  return suites.flatMap((suite) =>
    [suite.testcase]
      .flat()
      .map((testCase) => String((testCase as { "system-out"?: unknown })["system-out"] ?? "")),
  );
}

/** `front(origin, answer)`: an interposing server before `origin`, closed after the test. */
// biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
const it = test.extend("front", async ({}, { onCleanup }) => {
  const fronts: InterposingServer[] = [];
  onCleanup(async () => {
    await Promise.all(fronts.map((front) => front.close()));
  });
  return async (...args: Parameters<typeof startInterposingServer>) => {
    const front = await startInterposingServer(...args);
    fronts.push(front);
    return front;
  };
});

describe("a property-based failure in JUnit and summary.md", () => {
  it("carries the minimal input, the seed, the path and the replay; never the client secret", async ({
    sandbox,
  }) => {
    const result = await runPropertyCheck(
      "inputs.token-form",
      sandboxTarget(await sandbox(["token-empty-param-5xx"])),
    );
    const found = result.counterexample;
    expect(result.status).toBe("FAIL");
    expect(found?.input).toContain("<CLIENT_SECRET>");
    const markdown = renderSummaryMarkdown(runOf([result]));
    const junit = renderJunitXml(runOf([result]));
    for (const text of [markdown, junit, JSON.stringify(result)]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(Buffer.from(`sandbox-demo:${SECRET}`).toString("base64"));
    }
    expect(codeBlocks(markdown)).toContain(found?.input);
    expect(markdown).toContain(`seed 7, path \`${found?.path}\``);
    expect(markdown).toContain(`\`npx --no-install event-harness contract ${found?.replay}\``);
    expect(xmlProblems(junit)).toEqual([]);
    const output = junitOutputs(junit).join("\n");
    expect(output).toContain(`Minimal input: ${found?.what}`);
    expect(output).toContain(found?.input);
    expect(output).toContain(`Replay: npx --no-install event-harness contract ${found?.replay}`);
  });

  it("shows a minimal input holding control characters inert: visible, never raw, in both files", async ({
    sandbox: start,
    front: interpose,
  }) => {
    const sandbox = await start();
    const front = await interpose(new URL(sandbox.baseUrl).origin, (method, _path, _headers, body) =>
      method === "POST" && body.includes("\u0001") ? { status: 500, body: "boom" } : undefined,
    );
    const target = {
      ...sandboxTarget(sandbox),
      baseUrl: front.url(sandbox.baseUrl),
      tokenUrl: front.url(sandbox.tokenUrl),
    };
    const result = await runPropertyCheck("inputs.no-server-error", target, { runs: 400 });
    expect(result.status, result.message).toBe("FAIL");
    expect(result.counterexample?.what).toMatch(/raw control character/);
    const markdown = renderSummaryMarkdown(runOf([result]));
    const junit = renderJunitXml(runOf([result]));
    for (const text of [markdown, junit, result.message, result.counterexample?.input ?? ""])
      expect(text).not.toContain("\u0001");
    expect(result.counterexample?.input).toContain("check\\x01out");
    expect(xmlProblems(junit)).toEqual([]);
  });
});
