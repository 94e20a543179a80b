import type { Code, Heading, List } from "mdast";
import { describe, expect, it } from "vitest";
import type { CheckResult, Counterexample } from "../../../contracts/index.ts";
import type { ContractRun } from "../../../reporting/contract/index.ts";
import { INSECURE_WARNING } from "../../../reporting/contract/index.ts";
import { renderSummaryMarkdown } from "../../../reporting/contract/summary-markdown.ts";
import { liveNodes, markdownNodes, markdownTree, tablesOf, textOf } from "../../support/markdown-tree.ts";

function check(id: string, status: CheckResult["status"], extra: Partial<CheckResult> = {}): CheckResult {
  return {
    id,
    title: id,
    area: id.split(".")[0] as CheckResult["area"],
    level: "MUST",
    rule: "Authentication rule 3",
    status,
    message: `${id} said ${status}`,
    durationMs: 5,
    evidence: [],
    ...extra,
  };
}

const RUN: ContractRun = {
  tool: { name: "event-api-harness", version: "1.0.0" },
  suite: "contract (fast)",
  profile: "fast",
  seed: 7,
  startedAt: "2026-01-01T00:00:00.000Z",
  durationMs: 2500,
  target: {
    tokenUrl: "https://auth.example/oauth/token",
    baseUrl: "https://api.example/v1",
    clientId: "ci",
    clientAuth: "basic",
    insecure: false,
    embedded: false,
  },
  checks: [],
};

const run = (checks: CheckResult[], extra: Partial<ContractRun> = {}): ContractRun => ({
  ...RUN,
  checks,
  ...extra,
});

const headings = (markdown: string) =>
  markdownTree(markdown)
    .children.filter((n): n is Heading => n.type === "heading")
    .map((h) => [h.depth, textOf(h)]);

describe("renderSummaryMarkdown", () => {
  it("heads a named target's run with the verdict and counts, then says where it ran, how and how long", () => {
    const markdown = renderSummaryMarkdown(
      run([check("token.a", "PASS")], { target: { ...RUN.target, proxy: "http://proxy.internal:3128" } }),
    );
    const [headline, , line] = markdown.split("\n");
    expect(headline).toBe("## ✅ Contract kept — 1 PASS");
    const tree = markdownTree(markdown);
    expect(textOf(tree.children[1] as never)).toBe(
      "contract (fast) against https://api.example/v1 (token endpoint https://auth.example/oauth/token, client authentication basic, via proxy http://proxy.internal:3128), 2.5 s.",
    );
    expect(line).toContain("`https://api.example/v1`");
  });

  it("says why an aborted run stopped and why a target could not be tested", () => {
    expect(
      renderSummaryMarkdown(
        run([check("token.a", "PASS")], { aborted: "interrupted (received SIGINT)" }),
      ).split("\n")[0],
    ).toBe("## ⏹️ Aborted: interrupted (received SIGINT) — 1 PASS");
    expect(
      renderSummaryMarkdown(
        run([check("token.a", "SKIP")], { couldNotTest: "the token endpoint refused ci" }),
      ).split("\n")[0],
    ).toBe("## ⛔ Could not decide: could not test the target: the token endpoint refused ci — 1 SKIP");
  });

  it("has a table per area in the areas' order, each check's rule and result in its cells", () => {
    const markdown = renderSummaryMarkdown(
      run([
        check("events.accepted", "PASS"),
        check("token.issued", "WAIVED", { rule: "RFC 6749 | 5.1", level: "SHOULD" }),
        check("lifetime.sliding", "WARN"),
      ]),
    );
    expect(headings(markdown)).toEqual([
      [2, "✅ Contract kept — 1 WAIVED, 1 WARN, 1 PASS"],
      [3, "Token issuance"],
      [3, "Event creation"],
      [3, "Token lifetime (sliding expiry)"],
      [3, "Evidence"],
    ]);
    expect(
      tablesOf(markdown).map((table) => table.slice(1).map((row) => row.map((cell) => textOf(cell)))),
    ).toEqual([
      [["🧾", "token.issued", "SHOULD", "RFC 6749 | 5.1", "token.issued said WAIVED"]],
      [["✅", "events.accepted", "MUST", "Authentication rule 3", "events.accepted said PASS"]],
      [["⚠️", "lifetime.sliding", "MUST", "Authentication rule 3", "lifetime.sliding said WARN"]],
    ]);
  });

  it("lists the overrides and warns of a run with --insecure", () => {
    const markdown = renderSummaryMarkdown(
      run([check("token.a", "PASS")], {
        overrides: ["--audience none"],
        target: { ...RUN.target, insecure: true },
      }),
    );
    const tree = markdownTree(markdown);
    expect(tree.children.map((n) => textOf(n))).toContain("Overrides: --audience none.");
    const quotes = tree.children.filter((n) => n.type === "blockquote").map((n) => textOf(n));
    expect(quotes).toEqual([`[!WARNING]\n${INSECURE_WARNING}`]);
  });

  it("lists the ledger's outcomes under accepted deviations, naming the file", () => {
    const markdown = renderSummaryMarkdown(
      run([check("token.a", "WAIVED")], {
        acceptedFile: "accepted.json",
        accepted: [
          {
            entry: { id: "token.a", reason: "known gateway bug", ticket: "API-1", expires: "2027-01-31" },
            state: "waived",
            detail: "waived",
            level: "MUST",
          },
        ],
      }),
    );
    const tree = markdownTree(markdown);
    const at = tree.children.findIndex((n) => n.type === "heading" && textOf(n) === "Accepted deviations");
    expect(at).toBeGreaterThan(0);
    expect(textOf(tree.children[at + 1] as never)).toBe("From accepted.json:");
    const list = tree.children[at + 2] as List;
    expect(list.children).toHaveLength(1);
    expect(textOf(list)).toMatch(/^WAIVED +token\.a: .*known gateway bug$/);
  });

  it("folds evidence for every check that did not pass: each exchange's outcome and its curl in a code block", () => {
    const markdown = renderSummaryMarkdown(
      run([
        check("token.a", "PASS", {
          evidence: [
            { label: "kept out", curl: "curl passed", request: { method: "POST", url: "u", headers: {} } },
          ],
        }),
        check("bearer.b", "FAIL", {
          evidence: [
            {
              label: "garbage token",
              request: { method: "POST", url: "https://api.example/v1/events", headers: {} },
              response: { status: 500, headers: {}, body: "", durationMs: 3 },
              curl: "curl -X POST 'https://api.example/v1/events'",
            },
          ],
        }),
        check("events.c", "ERROR", {
          evidence: [
            {
              label: "create",
              request: { method: "POST", url: "https://api.example/v1/events", headers: {} },
              error: "ECONNRESET",
              curl: "curl -X POST 'https://api.example/v1/events' --data-raw '{}'",
            },
          ],
        }),
      ]),
    );
    const tree = markdownTree(markdown);
    const html = tree.children.filter((n) => n.type === "html").map((n) => textOf(n));
    // A fold's end and the next fold's start are one HTML block to a reader: what matters is their order.
    expect(html.join("\n").split("\n")).toEqual([
      "<details><summary>❌ <code>bearer.b</code></summary>",
      "</details>",
      "<details><summary>⛔ <code>events.c</code></summary>",
      "</details>",
    ]);
    const code = markdownNodes(tree).filter((n): n is Code => n.type === "code");
    expect(code.map((c) => [c.lang, c.value])).toEqual([
      ["sh", "curl -X POST 'https://api.example/v1/events'"],
      ["sh", "curl -X POST 'https://api.example/v1/events' --data-raw '{}'"],
    ]);
    const paragraphs = tree.children.filter((n) => n.type === "paragraph").map((n) => textOf(n));
    expect(paragraphs).toContain("garbage token → 500");
    expect(paragraphs).toContain("create → ECONNRESET");
    expect(markdown).not.toContain("curl passed");
  });

  it("gives a property-based failure's minimal input as JSON and the command that replays it", () => {
    const counterexample: Counterexample = {
      what: "customer.email is 0 (a number where a string belongs)",
      contentType: "application/json",
      input: '{"customer":{"email":0}}',
      seed: 42,
      path: "body/customer.email:3:1",
      class: "body/customer.email",
      byCoverage: false,
      shrinks: 4,
      foundAt: { input: 3, afterMs: 400, shrinkMs: 2100 },
      replay: "--seed 42 --only inputs.body --fuzz-replay body/customer.email:3:1",
    };
    const markdown = renderSummaryMarkdown(
      run([check("inputs.body", "FAIL", { counterexample })], {
        rerun: "npx --no-install event-harness contract --profile full",
      }),
    );
    const tree = markdownTree(markdown);
    const paragraphs = tree.children.filter((n) => n.type === "paragraph").map((n) => textOf(n));
    expect(paragraphs).toContain(
      "Minimal input: customer.email is 0 (a number where a string belongs) (Content-Type application/json; seed 42, path body/customer.email:3:1; found at input 3 after 400 ms, shrunk 4 times in 2.1 s)",
    );
    expect(paragraphs).toContain(
      "Replay: npx --no-install event-harness contract --profile full --seed 42 --only inputs.body --fuzz-replay body/customer.email:3:1",
    );
    const json = markdownNodes(tree).find((n): n is Code => n.type === "code" && n.lang === "json");
    expect(JSON.parse(json?.value ?? "null")).toEqual({ customer: { email: 0 } });
  });

  it("keeps a check's message and an exchange's error inert in the failed list and the evidence", () => {
    const markdown = renderSummaryMarkdown(
      run([
        check("bearer.b", "FAIL", {
          message: "[click](javascript:alert(1)) <img src=x onerror=alert(1)>",
          evidence: [
            {
              label: "x",
              request: { method: "GET", url: "u", headers: {} },
              error: "<script>alert(2)</script>",
              curl: "curl",
            },
          ],
        }),
      ]),
    );
    const live = liveNodes(markdown).map((n) => textOf(n));
    expect(live.every((text) => /^<\/?(details|summary|code)/.test(text) || text === "</details>")).toBe(
      true,
    );
    expect(markdownNodes(markdownTree(markdown)).some((n) => n.type === "link")).toBe(false);
  });
});
