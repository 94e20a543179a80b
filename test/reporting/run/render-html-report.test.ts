import { describe, expect, it } from "vitest";
import { INSECURE_WARNING } from "../../../reporting/contract/index.ts";
import type { PartDetails, PartLead, PartOutcome, RunOutcome } from "../../../reporting/run/index.ts";
import { renderHtmlReport } from "../../../reporting/run/index.ts";
import type { MarkupElement } from "../../support/report-markup.ts";
import { markupElements } from "../../support/report-markup.ts";
import { capacityDigest as CAPACITY, loadPartFacts as FACTS } from "../../support/run-part-details.ts";
import { CONTRACT_CHECKS, INJECTION } from "./report-fixture.ts";

const CONTRACT: PartOutcome = {
  id: "contract",
  kind: "contract",
  title: "Contract",
  command: "event-harness contract --profile fast",
  verdict: "failed",
  exitCode: 1,
  startedAt: "2026-01-01T00:00:00.000Z",
  durationMs: 4200,
};

const LOAD: PartOutcome = {
  ...CONTRACT,
  id: "load-capacity",
  kind: "load",
  title: "Load: capacity",
  command: "event-harness load --scenario capacity",
  verdict: "passed",
  exitCode: 0,
};

const RUN: RunOutcome = {
  tool: { name: "event-api-harness", version: "1.2.3", commit: "0123456789abcdef0123", modified: true },
  runId: "run-1",
  startedAt: "2026-01-01T00:00:00.000Z",
  durationMs: 65_000,
  verdict: "failed",
  verdictLine: "FAILED — contract: 1 FAIL (bearer.garbage) · 1 of 2 parts passed",
  target: {
    embedded: false,
    baseUrl: "https://api.example/v1",
    tokenUrl: "https://auth.example/oauth/token",
  },
  parts: [CONTRACT, LOAD],
};

const PARTS: readonly PartDetails[] = [
  {
    outcome: CONTRACT,
    checks: { suite: "contract", durationMs: 4200, checks: CONTRACT_CHECKS, accepted: [] },
    files: ["contract/junit.xml", "contract/summary.md"],
  },
  { outcome: LOAD, capacity: CAPACITY, files: [] },
];

/** The page's body without its own script, as elements: what a reader of the page sees. */
function body(page: string): MarkupElement[] {
  const start = page.indexOf("<body>") + "<body>".length;
  const end = page.lastIndexOf("<script>");
  return markupElements(page.slice(start, end));
}

const textOf = (elements: MarkupElement[], tag: string, className?: string) =>
  elements
    .filter(
      (e) =>
        e.tag === tag &&
        (className === undefined || (e.attributes.class ?? "").split(" ").includes(className)),
    )
    .map((e) => e.text);

describe("renderHtmlReport", () => {
  it("opens on the verdict: its title, what it means, and how many parts passed", () => {
    const page = renderHtmlReport(RUN, PARTS);
    expect(/<title>([^<]*)<\/title>/.exec(page)?.[1]).toBe("Failed · Event API harness run run-1");
    const elements = body(page);
    const h1 = elements.find((e) => e.tag === "h1");
    expect(h1?.attributes["data-verdict"]).toBe("failed");
    expect(h1?.text).toBe("✕Failed");
    const banner = textOf(elements, "header", "banner")[0] ?? "";
    expect(banner).toContain("the target broke its contract. 1 of 2 parts passed.");
    expect(textOf(elements, "p", "verdict-line")).toEqual([RUN.verdictLine]);
  });

  it("says why an aborted run stopped and why a target could not be tested", () => {
    const page = renderHtmlReport(
      { ...RUN, verdict: "aborted", aborted: "interrupted (received SIGTERM)", couldNotTest: "no token" },
      PARTS,
    );
    const text = textOf(body(page), "header", "banner")[0] ?? "";
    expect(text).toContain(
      "it proves neither a pass nor a failure. (interrupted (received SIGTERM)) (could not test the target: no token) 1 of 2 parts passed.",
    );
  });

  it("names the target and token endpoint, the settings, overrides and the harness's commit", () => {
    const page = renderHtmlReport(
      {
        ...RUN,
        target: { ...RUN.target, config: { file: "harness.yml", environment: "staging" } },
        overrides: ["--rate", "--token-param NAME"],
      },
      PARTS,
    );
    const spans = body(page)
      .filter((e) => e.tag === "span" && e.text.length > 0)
      .map((e) => e.text);
    expect(spans).toContain(
      "Target: https://api.example/v1 (token endpoint https://auth.example/oauth/token)",
    );
    expect(spans).toContain("Settings: environment staging of harness.yml");
    expect(spans).toContain("Overrides: --rate, --token-param NAME");
    expect(spans).toContain("event-api-harness 1.2.3, commit 0123456789ab with uncommitted changes");
    expect(spans).toContain("Took 1 min 5 s");
  });

  it("says a commit it does not know is unknown, and names none when there is no commit to speak of", () => {
    const spans = (run: RunOutcome) => body(renderHtmlReport(run, PARTS)).map((e) => e.text);
    expect(spans({ ...RUN, tool: { ...RUN.tool, commit: null } })).toContain(
      "event-api-harness 1.2.3, commit unknown",
    );
    const { commit: _, ...noCommit } = RUN.tool;
    expect(spans({ ...RUN, tool: noCommit })).toContain("event-api-harness 1.2.3");
  });

  it("marks a run on the embedded sandbox as a demo, and a run with --insecure with a warning", () => {
    const elements = body(
      renderHtmlReport({ ...RUN, target: { embedded: true, insecure: true } }, PARTS, [], "2 stale waivers"),
    );
    expect(textOf(elements, "p", "demo")[0]).toContain("Demo: embedded sandbox — not your API.");
    expect(textOf(elements, "p", "warning")).toEqual([`⚠ 2 stale waivers`, `⚠ ${INSECURE_WARNING}`]);
    const named = body(renderHtmlReport(RUN, PARTS));
    expect(textOf(named, "p", "demo")).toEqual([]);
    expect(textOf(named, "p", "warning")).toEqual([]);
  });

  it("speaks of the issuer when its metadata named no events URL", () => {
    const spans = body(
      renderHtmlReport({ ...RUN, target: { embedded: false, issuer: "https://idp.example" } }, PARTS),
    )
      .filter((e) => e.tag === "span")
      .map((e) => e.text);
    expect(spans).toContain(
      "Target: the target of the issuer https://idp.example (its metadata could not be read)",
    );
  });

  it("gives each part a card with its verdict and one fact, linked to its section", () => {
    const elements = body(
      renderHtmlReport(RUN, [
        ...PARTS,
        { outcome: { ...LOAD, id: "load-2" }, capacity: { ...CAPACITY, broken: undefined }, files: [] },
        { outcome: { ...LOAD, id: "load-3" }, capacity: { ...CAPACITY, held: undefined }, files: [] },
        { outcome: { ...LOAD, id: "rotation", kind: "rotation" }, files: [] },
        {
          outcome: { ...LOAD, id: "load-4" },
          load: { facts: FACTS, thresholds: [], waived: [], accepted: [] },
          files: [],
        },
      ]),
    );
    const cards = elements.filter((e) => e.tag === "a" && (e.attributes.class ?? "").startsWith("part-card"));
    expect(cards.map((c) => [c.attributes.href, c.attributes.class])).toEqual([
      ["#part-contract", "part-card failed"],
      ["#part-load-capacity", "part-card passed"],
      ["#part-load-2", "part-card passed"],
      ["#part-load-3", "part-card passed"],
      ["#part-rotation", "part-card passed"],
      ["#part-load-4", "part-card passed"],
    ]);
    expect(textOf(elements, "div", "fact")).toEqual([
      "7 checks, 3 not PASS · 4.2 s",
      "capacity 40 events/s · 80/s broke · 4.2 s",
      "capacity 40 events/s or more · 4.2 s",
      "no rate held · 4.2 s",
      "no report files · 4.2 s",
      "190 events · p95 40 ms · 1 violation · 4.2 s",
    ]);
  });

  it("gives each part a section with its note, checks, files, exit code and the command to reproduce it", () => {
    const elements = body(
      renderHtmlReport(RUN, [
        { ...PARTS[0], outcome: { ...CONTRACT, note: "2 checks waived" } } as PartDetails,
      ]),
    );
    const section = elements.find((e) => e.tag === "section" && e.attributes.id === "part-contract");
    expect(section?.attributes["data-part"]).toBe("contract");
    expect(section?.attributes["data-verdict"]).toBe("failed");
    expect(textOf(elements, "div", "note")).toEqual(["2 checks waived"]);
    expect(elements.filter((e) => e.tag === "details").map((e) => e.attributes.id)).toContain(
      "check-bearer.garbage",
    );
    const links = elements.filter((e) => e.tag === "a" && e.attributes.href?.startsWith("contract/"));
    expect(links.map((a) => [a.attributes.href, a.text])).toEqual([
      ["contract/junit.xml", "junit.xml"],
      ["contract/summary.md", "summary.md"],
    ]);
    expect(section?.text).toContain("4.2 s · exit 1");
    expect(textOf(elements, "div", "cmd")).toEqual(["event-harness contract --profile fast"]);
  });

  it("says a checks part that ran wrote no results.json, but not of a part that never ran", () => {
    const ran = body(renderHtmlReport(RUN, [{ outcome: CONTRACT, files: [] }]));
    expect(textOf(ran, "p", "muted")).toContain("No results.json was written.");
    const skipped = body(
      renderHtmlReport(RUN, [{ outcome: { ...CONTRACT, verdict: "skipped", exitCode: null }, files: [] }]),
    );
    expect(textOf(skipped, "p", "muted")).not.toContain("No results.json was written.");
    expect(textOf(skipped, "section")[0]).not.toContain("exit");
  });

  it("lists the problems first, each linked to its evidence: a check's fold or its part's section", () => {
    const leads: PartLead[] = [
      {
        part: CONTRACT,
        evidence: "contract/summary.md",
        items: [
          { kind: "check", status: "FAIL", id: "bearer.garbage", level: "MUST", message: "expected 401" },
        ],
      },
      {
        part: { ...LOAD, id: "load-sustained", verdict: "failed" },
        evidence: undefined,
        items: [
          { kind: "threshold", metric: "events_failed", expression: "rate<0.01", observed: "rate=0.05" },
          { kind: "sliding-expiry", reason: "2 early expiries" },
          { kind: "baseline", figure: "events.p95" },
          { kind: "reason", reason: "no event was accepted" },
          { kind: "note", note: "k6 exited 107" },
        ],
      },
      { part: { ...LOAD, id: "rotation", verdict: "undecided" }, evidence: undefined, items: [] },
    ];
    const elements = body(renderHtmlReport(RUN, PARTS, leads));
    const problems = elements.findIndex((e) => e.tag === "section" && e.attributes.id === "problems");
    const cards = elements.findIndex((e) => e.tag === "nav");
    expect(problems).toBeGreaterThanOrEqual(0);
    expect(problems).toBeLessThan(cards);
    const items = elements.filter((e, i) => e.tag === "li" && i > problems && i < cards);
    const links = elements
      .filter((e, i) => e.tag === "a" && i > problems && i < cards)
      .map((a) => a.attributes.href);
    expect(items.map((li) => li.text)).toEqual([
      "contract bearer.garbage FAIL (MUST): expected 401",
      "load-sustained threshold events_failed rate<0.01 (rate=0.05)",
      "load-sustained sliding expiry BROKEN: 2 early expiries",
      "load-sustained baseline events.p95 REGRESSED",
      "load-sustained no event was accepted",
      "load-sustained k6 exited 107",
      "rotation: undecided",
    ]);
    expect(links).toEqual([
      "#check-bearer.garbage",
      ...new Array<string>(5).fill("#part-load-sustained"),
      "#part-rotation",
    ]);
  });

  it("has no problems section when nothing failed", () => {
    const elements = body(renderHtmlReport({ ...RUN, verdict: "passed" }, PARTS, []));
    expect(elements.some((e) => e.attributes.id === "problems")).toBe(false);
  });

  it("keeps what a run's names and a target's words hold as text: the page's one script is its own", () => {
    const page = renderHtmlReport(
      { ...RUN, runId: INJECTION, aborted: INJECTION, verdictLine: INJECTION, overrides: [INJECTION] },
      [{ outcome: { ...CONTRACT, title: INJECTION, command: INJECTION, note: INJECTION }, files: [] }],
      [{ part: CONTRACT, evidence: undefined, items: [{ kind: "note", note: INJECTION }] }],
      INJECTION,
    );
    expect(page.match(/<script/g)).toHaveLength(1);
    const elements = body(page);
    expect(elements.some((e) => e.tag === "img" || e.tag === "script")).toBe(false);
    expect(textOf(elements, "div", "cmd")).toEqual([INJECTION]);
    expect(textOf(elements, "p", "verdict-line")).toEqual([INJECTION]);
  });
});
