import { describe, expect, it } from "vitest";
import type { CheckResult } from "../../../contracts/index.ts";
import { curlCommand } from "../../../contracts/probe/evidence.ts";
import type { ContractRun } from "../../../reporting/contract/index.ts";
import { renderConsoleSummary, verdictOf } from "../../../reporting/contract/index.ts";
import { renderJunitXml } from "../../../reporting/contract/junit-xml.ts";
import { renderResultsJson } from "../../../reporting/contract/results-json.ts";
import { renderSummaryMarkdown } from "../../../reporting/contract/summary-markdown.ts";
import { liveNodes } from "../../support/markdown-tree.ts";

function check(id: string, status: CheckResult["status"], message = "msg"): CheckResult {
  const area = id.split(".")[0] as CheckResult["area"];
  return {
    id,
    title: `title of ${id}`,
    area,
    level: "MUST",
    rule: "rule",
    status,
    message,
    durationMs: 5,
    evidence: [],
  };
}

function run(checks: CheckResult[]): ContractRun {
  return {
    tool: { name: "event-api-harness", version: "0.0.0" },
    suite: "contract (fast)",
    profile: "fast",
    seed: 1,
    startedAt: "2026-01-01T00:00:00.000Z",
    durationMs: 1234,
    target: {
      tokenUrl: "http://a/oauth/token",
      baseUrl: "http://b",
      clientId: "c",
      audience: "http://b",
      clientAuth: "post",
      insecure: false,
      embedded: true,
    },
    checks,
  };
}

describe("verdict", () => {
  it("is failed when anything failed, even beside an ERROR; undecided for ERROR alone; passed with warnings", () => {
    expect(verdictOf(run([check("token.a", "FAIL"), check("token.b", "ERROR")]))).toBe("failed");
    expect(verdictOf(run([check("token.a", "PASS"), check("token.b", "ERROR")]))).toBe("undecided");
    expect(verdictOf(run([check("token.a", "WARN"), check("token.b", "SKIP")]))).toBe("passed");
  });

  it("is aborted for an interrupted run, whatever its checks say", () => {
    const aborted = (checks: CheckResult[]) => ({ ...run(checks), aborted: "interrupted (received SIGINT)" });
    expect(verdictOf(aborted([check("token.a", "PASS")]))).toBe("aborted");
    expect(verdictOf(aborted([check("token.a", "FAIL")]))).toBe("aborted");
  });
});

describe("reports of an interrupted run whose checks all passed", () => {
  const interrupted: ContractRun = {
    ...run([check("token.a", "PASS"), check("bearer.b", "PASS")]),
    aborted: "interrupted (received SIGTERM)",
  };

  it("say ABORTED in every output, never PASSED or kept", () => {
    const console = renderConsoleSummary(interrupted);
    expect(console).toMatch(/^Verdict: ABORTED \(interrupted \(received SIGTERM\)\) — 2 PASS/m);
    expect(console).not.toContain("PASSED");
    const results = JSON.parse(renderResultsJson(interrupted)) as { verdict: string; aborted: string };
    expect(results).toMatchObject({ verdict: "aborted", aborted: "interrupted (received SIGTERM)" });
    const markdown = renderSummaryMarkdown(interrupted);
    expect(markdown).toMatch(/^## ⏹️ Aborted: interrupted \(received SIGTERM\) — 2 PASS/);
    expect(markdown).not.toContain("Contract kept");
    const junit = renderJunitXml(interrupted);
    expect(junit).toContain('errors="1"');
    expect(junit).toContain('<error message="ABORTED: interrupted (received SIGTERM)" type="aborted"');
  });
});

describe("reports", () => {
  const checks = [
    check("token.a", "PASS"),
    check("token.b", "FAIL", 'expected <200> & "ok"\u0001'),
    check("bearer.c", "ERROR", "could not decide: connection refused"),
    check("events.d", "SKIP", "needs a token"),
    check("events.e", "WARN", "expected a 4xx"),
  ];

  it("writes JUnit with FAIL as failure, ERROR as error, SKIP as skipped and XML-safe text", () => {
    const xml = renderJunitXml(run(checks));
    expect(xml).toContain(
      '<testsuites name="event-api-harness contract (fast)" tests="5" failures="1" errors="1"',
    );
    expect(xml).toContain('<failure message="expected &lt;200&gt; &amp; &quot;ok&quot;" type="MUST">');
    expect(xml).toContain('<error message="could not decide: connection refused" type="could-not-decide">');
    expect(xml).toContain('<skipped message="needs a token"/>');
    expect(xml).toContain("WARN [MUST] rule: expected a 4xx");
    expect(xml).not.toContain("\u0001");
  });

  it("leads the markdown summary with the verdict and gives evidence for what did not pass", () => {
    const markdown = renderSummaryMarkdown(run(checks));
    expect(markdown.split("\n")[0]).toBe(
      "## ❌ Contract broken — 1 FAIL, 1 ERROR, 1 WARN, 1 SKIP, 1 PASS (embedded sandbox — not your API)",
    );
    expect(markdown).toContain("| ❌ | `token.b` | MUST | rule |");
    expect(markdown.match(/<details>/g)?.length).toBe(4);
  });

  it("escapes what a target sent: its HTML stays text and a backtick run cannot end the evidence's code block", () => {
    const hostile: CheckResult = {
      ...check("events.x", "FAIL", "got </pre><script>alert(1)</script> | 500"),
      evidence: [
        {
          label: "POST /events",
          error: "<img src=x onerror=alert(1)>",
          curl: "curl -X POST 'http://x/events' --data-raw '```\n# not a heading'",
        },
      ] as unknown as CheckResult["evidence"],
    };
    const markdown = renderSummaryMarkdown(run([hostile]));
    // A GFM reader sees the target's HTML as text: the only raw HTML is the harness's own fold.
    const live = liveNodes(markdown).map((node) => JSON.stringify(node));
    expect(live.filter((node) => /script|img/.test(node))).toEqual([]);
    expect(markdown).toContain("got \\</pre\\>\\<script\\>alert(1)\\</script\\> \\| 500");
    expect(markdown).toContain("→ \\<img src=x onerror=alert(1)\\>");
    expect(markdown).toContain(
      "````sh\ncurl -X POST 'http://x/events' --data-raw '```\n# not a heading'\n````",
    );
  });

  it("ends the console summary with the verdict line", () => {
    expect(renderConsoleSummary(run(checks)).trimEnd().split("\n").at(-1)).toBe(
      "Verdict: FAILED — 1 FAIL, 1 ERROR, 1 WARN, 1 SKIP, 1 PASS (1.2 s, contract (fast), embedded sandbox — not your API)",
    );
  });

  it("quotes curl arguments so the command can be pasted into a shell", () => {
    expect(
      curlCommand({ method: "POST", url: "http://x/events", headers: { a: "it's" }, body: '{"a":1}' }),
    ).toBe(`curl -sS -i -X POST 'http://x/events' -H 'a: it'"'"'s' --data-raw '{"a":1}'`);
  });
});
