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

  it("reads COULD NOT DECIDE on the console when undecided, as run and the exit-code table say it", () => {
    expect(renderConsoleSummary(run([check("token.a", "PASS"), check("token.b", "ERROR")]))).toMatch(
      /^Verdict: COULD NOT DECIDE — 1 ERROR \(token\.b\), 1 PASS /m,
    );
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
      "## ❌ Contract broken — 1 FAIL (token.b), 1 ERROR (bearer.c), 1 WARN, 1 SKIP, 1 PASS (embedded sandbox — not your API)",
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

  it("ends the console summary with where the reports are, then the verdict line naming what failed", () => {
    const lines = renderConsoleSummary(run(checks), "Reports: r/results.json, r/summary.md")
      .trimEnd()
      .split("\n");
    expect(lines.slice(-2)).toEqual([
      "Reports: r/results.json, r/summary.md",
      "Verdict: FAILED — 1 FAIL (token.b), 1 ERROR (bearer.c), 1 WARN, 1 SKIP, 1 PASS (1.2 s, contract (fast), embedded sandbox — not your API)",
    ]);
  });

  it("names a few of many failed checks and counts the rest", () => {
    const many = ["a", "b", "c", "d", "e", "f", "g"].map((id) => check(`token.${id}`, "FAIL"));
    expect(renderConsoleSummary(run(many))).toMatch(
      /^Verdict: FAILED — 7 FAIL \(token\.a, token\.b, token\.c, token\.d, token\.e and 2 more\) \(/m,
    );
  });

  it("leads summary.md with the failed checks, before any table of what passed", () => {
    const markdown = renderSummaryMarkdown(run(checks));
    const failed = markdown.indexOf("### Failed");
    expect(failed).toBeGreaterThan(0);
    expect(failed).toBeLessThan(markdown.indexOf("| ✅ |"));
    expect(markdown.slice(failed).split("\n").slice(2, 4)).toEqual([
      '- ❌ `token.b` (MUST): expected \\<200\\> \\& "ok"\u0001',
      "- ⛔ `bearer.c` (MUST): could not decide: connection refused",
    ]);
  });

  it("quotes curl arguments so the command can be pasted into a shell", () => {
    expect(
      curlCommand({ method: "POST", url: "http://x/events", headers: { a: "it's" }, body: '{"a":1}' }),
    ).toBe(`curl -sS -i -X POST 'http://x/events' -H 'a: it'"'"'s' --data-raw '{"a":1}'`);
  });
});

describe("a rotation check's reports", () => {
  const rotation = (status: CheckResult["status"]): ContractRun => ({
    ...run([check("rotation.new-secret", "PASS"), check("rotation.old-secret", status)]),
    suite: "verify-rotation",
  });

  it("speak of the rotation, not of the contract", () => {
    expect(renderSummaryMarkdown(rotation("PASS")).split("\n")[0]).toBe(
      "## ✅ Rotation verified — 2 PASS (embedded sandbox — not your API)",
    );
    expect(renderSummaryMarkdown(rotation("FAIL")).split("\n")[0]).toBe(
      "## ❌ Rotation not as expected — 1 FAIL (rotation.old-secret), 1 PASS (embedded sandbox — not your API)",
    );
    expect(renderSummaryMarkdown(rotation("PASS"))).not.toContain("Contract");
  });
});

describe("a stale waiver of a MUST check", () => {
  const entry = { id: "token.a", reason: "fixed lifetime", ticket: "API-1", expires: "2027-01-31" };
  const stale: ContractRun = {
    ...run([check("token.a", "PASS"), check("token.b", "PASS")]),
    acceptedFile: "accepted.json",
    accepted: [{ entry, state: "stale", detail: "passes now: remove the entry", level: "MUST" }],
  };
  const warning =
    "STALE WAIVER: token.a (MUST) passes, and accepted.json still waives it until 2027-01-31: remove the entry, or its next failure reads WAIVED and passes";

  it("is said at the console's end and in the verdict line", () => {
    const lines = renderConsoleSummary(stale, "Reports: r/summary.md").trimEnd().split("\n");
    expect(lines.slice(-3)).toEqual([
      `WARNING: ${warning}`,
      "Reports: r/summary.md",
      "Verdict: PASSED — 2 PASS (1.2 s, contract (fast), embedded sandbox — not your API) · STALE WAIVER: token.a",
    ]);
  });

  it("is a warning right under summary.md's headline", () => {
    const markdown = renderSummaryMarkdown(stale);
    expect(markdown.split("\n").slice(0, 4)).toEqual([
      "## ✅ Contract kept — 2 PASS; STALE WAIVER: token.a (embedded sandbox — not your API)",
      "",
      "> [!WARNING]",
      `> ${warning}`,
    ]);
  });

  it("stays a quiet line for a SHOULD check", () => {
    const should: ContractRun = {
      ...stale,
      accepted: [{ entry, state: "stale", detail: "passes now: remove the entry", level: "SHOULD" }],
    };
    expect(renderConsoleSummary(should)).not.toContain("STALE WAIVER");
    expect(renderSummaryMarkdown(should)).not.toContain("STALE WAIVER");
    expect(renderConsoleSummary(should)).toMatch(/STALE +token\.a: passes now: remove the entry/);
  });
});
