import type { Blockquote, Heading, List, Paragraph } from "mdast";
import { describe, expect, it } from "vitest";
import { INSECURE_WARNING } from "../../../reporting/contract/index.ts";
import type { ReportFacts } from "../../../reporting/load/index.ts";
import type { PartDetails, PartLead, PartOutcome, RunOutcome } from "../../../reporting/run/index.ts";
import { renderRunSummaryMarkdown } from "../../../reporting/run/index.ts";
import { liveNodes, markdownTree, tablesOf, textOf } from "../../support/markdown-tree.ts";
import { capacityDigest as CAPACITY, loadPartFacts } from "../../support/run-part-details.ts";
import { CONTRACT_CHECKS, INJECTION } from "./report-fixture.ts";

const PART: PartOutcome = {
  id: "contract",
  kind: "contract",
  title: "Contract",
  command: "event-harness contract",
  verdict: "failed",
  exitCode: 1,
  startedAt: "2026-01-01T00:00:00.000Z",
  durationMs: 4200,
};

const FACTS: ReportFacts = { ...loadPartFacts, unexpectedExpiries: 2 };

const LOAD_PART: PartDetails = {
  outcome: { ...PART, id: "load-sustained", kind: "load", title: "Load", verdict: "passed", exitCode: 0 },
  load: {
    facts: FACTS,
    thresholds: [
      { metric: "events_failed", expression: "rate<0.01", ok: false, observed: "rate=0.05" },
      { metric: "http_req_duration", expression: "p(95)<500", ok: false, observed: undefined },
      { metric: "checks", expression: "rate>0.9", ok: true, observed: undefined },
    ],
    waived: [{ metric: "http_req_duration", expression: "p(95)<500" }],
    accepted: [],
  },
  files: [],
};

const PARTS: readonly PartDetails[] = [
  {
    outcome: PART,
    checks: { suite: "contract", durationMs: 4200, checks: CONTRACT_CHECKS, accepted: [] },
    files: [],
  },
  LOAD_PART,
  {
    outcome: { ...PART, id: "load-capacity", kind: "load", title: "Capacity", verdict: "passed" },
    capacity: CAPACITY,
    files: [],
  },
  {
    outcome: { ...PART, id: "rotation", kind: "rotation", title: "Rotation", verdict: "skipped" },
    files: [],
  },
];

const RUN: RunOutcome = {
  tool: { name: "event-api-harness", version: "1.2.3" },
  runId: "run-1",
  startedAt: "2026-01-01T00:00:00.000Z",
  durationMs: 65_000,
  verdict: "failed",
  target: {
    embedded: false,
    baseUrl: "https://api.example/v1",
    tokenUrl: "https://auth.example/oauth/token",
  },
  parts: PARTS.map((part) => part.outcome),
};

const render = (
  run: RunOutcome = RUN,
  parts: readonly PartDetails[] = PARTS,
  options: { leads?: PartLead[]; stale?: string; summaries?: Map<string, string> } = {},
) =>
  renderRunSummaryMarkdown(
    run,
    parts,
    options.summaries ?? new Map(),
    "runs/run-1/index.html",
    options.leads ?? [],
    options.stale,
  );

const headline = (markdown: string) => {
  const first = markdownTree(markdown).children[0] as Heading;
  expect(first.type).toBe("heading");
  expect(first.depth).toBe(2);
  return textOf(first);
};

const paragraphs = (markdown: string) =>
  markdownTree(markdown)
    .children.filter((node): node is Paragraph => node.type === "paragraph")
    .map((node) => textOf(node));

describe("renderRunSummaryMarkdown", () => {
  it("heads with the verdict, the parts that did not pass by what became of them, and how many passed", () => {
    expect(headline(render())).toBe("❌ Failed — contract failed; rotation not run; 2 of 4 parts passed");
    const mixed = render({
      ...RUN,
      verdict: "aborted",
      aborted: "interrupted (received SIGTERM)",
      parts: [
        { ...PART, verdict: "undecided" },
        { ...PART, id: "b", verdict: "aborted" },
        { ...PART, id: "c", verdict: "undecided" },
      ],
    });
    expect(headline(mixed)).toBe(
      "⏹️ Aborted: interrupted (received SIGTERM) — contract, c could not decide; b aborted; 0 of 3 parts passed",
    );
    const embedded = render({
      ...RUN,
      verdict: "undecided",
      couldNotTest: "no token",
      target: { embedded: true },
      parts: [],
    });
    expect(headline(embedded)).toBe(
      "⛔ Could not decide: could not test the target: no token — 0 of 0 parts passed (embedded sandbox — not your API)",
    );
  });

  it("says the verdict line in bold and a stale waiver as a warning under the headline", () => {
    const markdown = render({ ...RUN, verdictLine: "FAILED — contract: 1 FAIL" }, PARTS, {
      stale: "1 stale waiver in ledger.yml",
    });
    const [, bold, warning] = markdownTree(markdown).children;
    expect(bold?.type).toBe("paragraph");
    expect((bold as Paragraph).children[0]?.type).toBe("strong");
    expect(textOf(bold as Paragraph)).toBe("FAILED — contract: 1 FAIL");
    expect(warning?.type).toBe("blockquote");
    expect(textOf(warning as Blockquote)).toBe("[!WARNING]\n1 stale waiver in ledger.yml");
  });

  it("says where the run went, from which settings, how long it took and where the visual report is", () => {
    const markdown = render({
      ...RUN,
      target: { ...RUN.target, config: { file: "harness.yml", environment: "staging" } },
    });
    expect(paragraphs(markdown)).toContain(
      "Run run-1 against https://api.example/v1 (token endpoint https://auth.example/oauth/token), settings from environment staging of harness.yml, 1 min 5 s. Visual report: runs/run-1/index.html.",
    );
    const issuer = render({ ...RUN, target: { embedded: false, issuer: "https://idp.example" } });
    expect(paragraphs(issuer).find((p) => p.startsWith("Run "))).toBe(
      "Run run-1 against the target of the issuer https://idp.example (its metadata could not be read), 1 min 5 s. Visual report: runs/run-1/index.html.",
    );
  });

  it("lists the overrides and warns of a run with --insecure", () => {
    const markdown = render({ ...RUN, overrides: ["--rate"], target: { ...RUN.target, insecure: true } });
    expect(paragraphs(markdown)).toContain("Overrides: --rate.");
    const quotes = markdownTree(markdown).children.filter((n) => n.type === "blockquote");
    expect(quotes.map((q) => textOf(q))).toEqual([`[!WARNING]\n${INSECURE_WARNING}`]);
    expect(markdownTree(render()).children.some((n) => n.type === "blockquote")).toBe(false);
  });

  it("gives one row per part with what it found: checks, load figures and thresholds, a capacity, or its note", () => {
    const [table] = tablesOf(render());
    expect(table?.map((row) => row.map((cell) => textOf(cell)))).toEqual([
      ["", "Part", "Result", "Took"],
      [
        "❌",
        "Contract",
        "7 checks: 1 FAIL (bearer.garbage), 1 ERROR (events.stored), 1 WARN, 4 PASS",
        "4.2 s",
      ],
      [
        "✅",
        "Load",
        "190 events accepted, p95 40 ms, 3 sliding-expiry violations, 1 threshold crossed, 1 threshold WAIVED",
        "4.2 s",
      ],
      ["✅", "Capacity", "capacity 40 events/s, 80/s broke, 0 steps", "4.2 s"],
      ["⏭️", "Rotation", "no report", "4.2 s"],
    ]);
  });

  it("leaves the thresholds to a load part's gate when it has one, and says a part's note when it has no report", () => {
    const gated: PartDetails = {
      ...LOAD_PART,
      outcome: { ...LOAD_PART.outcome, gate: "1 threshold crossed: events_failed rate<0.01" },
    };
    const noted: PartDetails = { outcome: { ...PART, note: "k6 was | not found" }, files: [] };
    const [table] = tablesOf(
      render(RUN, [
        gated,
        noted,
        {
          outcome: { ...PART, id: "x", kind: "load" },
          capacity: { ...CAPACITY, held: undefined, broken: undefined },
          files: [],
        },
      ]),
    );
    expect(table?.slice(1).map((row) => textOf(row[2] as NonNullable<(typeof row)[2]>))).toEqual([
      "190 events accepted, p95 40 ms, 3 sliding-expiry violations; 1 threshold crossed: events_failed rate<0.01",
      "k6 was | not found",
      "no rate held, 0 steps",
    ]);
  });

  it("lists every problem with its part, each kind in its words, and where its evidence is", () => {
    const leads: PartLead[] = [
      {
        part: PART,
        evidence: "contract/summary.md",
        items: [
          { kind: "check", status: "FAIL", id: "bearer.garbage", level: "MUST", message: "expected 401" },
          { kind: "check", status: "ERROR", id: "events.stored", level: "MUST", message: "ECONNRESET" },
        ],
      },
      {
        part: { ...PART, id: "load-sustained" },
        evidence: undefined,
        items: [
          { kind: "threshold", metric: "events_failed", expression: "rate<0.01", observed: "rate=0.05" },
          { kind: "sliding-expiry", reason: "2 early expiries" },
          { kind: "baseline", figure: "events.p95" },
          { kind: "reason", reason: "no event was accepted" },
          { kind: "note", note: "k6 exited 107" },
        ],
      },
      { part: { ...PART, id: "rotation", verdict: "undecided" }, evidence: undefined, items: [] },
    ];
    const tree = markdownTree(render(RUN, PARTS, { leads }));
    const heading = tree.children.findIndex((n) => n.type === "heading" && textOf(n) === "Problems");
    expect(heading).toBeGreaterThan(0);
    const list = tree.children[heading + 1] as List;
    expect(list.type).toBe("list");
    expect(list.children.map((item) => textOf(item))).toEqual([
      "❌ contract bearer.garbage: expected 401",
      "⛔ contract events.stored: ECONNRESET",
      "📄 contract evidence: contract/summary.md",
      "❌ load-sustained threshold events_failed rate<0.01 (rate=0.05)",
      "❌ load-sustained sliding expiry: 2 early expiries",
      "❌ load-sustained baseline events.p95 REGRESSED",
      "❌ load-sustained: no event was accepted",
      "❌ load-sustained: k6 exited 107",
      "⛔ rotation: undecided",
    ]);
    expect(markdownTree(render()).children.some((n) => textOf(n) === "Problems")).toBe(false);
  });

  it("folds each part's own summary away below, its headings moved two levels down", () => {
    const summaries = new Map([["contract", "# Contract\n\n## Checks\n\nall told\n"]]);
    const markdown = render(RUN, PARTS, { summaries });
    const tree = markdownTree(markdown);
    const html = tree.children.filter((n) => n.type === "html").map((n) => textOf(n));
    expect(html).toEqual(["<details><summary>❌ Contract: full summary</summary>", "</details>"]);
    const headings = tree.children.filter((n): n is Heading => n.type === "heading");
    expect(headings.slice(-2).map((h) => [h.depth, textOf(h)])).toEqual([
      [3, "Contract"],
      [4, "Checks"],
    ]);
  });

  it("keeps a target's words and a run's names inert: no link, image or HTML comes from them", () => {
    const leads: PartLead[] = [
      {
        part: PART,
        evidence: undefined,
        items: [{ kind: "check", status: "FAIL", id: "a.b", level: "MUST", message: INJECTION }],
      },
    ];
    const markdown = render(
      { ...RUN, runId: INJECTION, aborted: INJECTION, verdictLine: `[x](javascript:alert(1)) ${INJECTION}` },
      [{ outcome: { ...PART, title: INJECTION, note: "![i](http://x/i.png)" }, files: [] }],
      { leads },
    );
    expect(liveNodes(markdown)).toEqual([]);
    const [table] = tablesOf(markdown);
    expect(table?.[1]?.map((cell) => textOf(cell))).toEqual([
      "❌",
      INJECTION,
      "![i](http://x/i.png)",
      "4.2 s",
    ]);
  });
});
