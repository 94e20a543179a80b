import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { INSECURE_WARNING } from "../../../reporting/contract/index.ts";
import { combineVerdicts, writeRunReport } from "../../../reporting/run/index.ts";
import { it as base, describe, expect } from "../../support/fixtures.ts";
import { liveNodes } from "../../support/markdown-tree.ts";
import { writeFixtureRun } from "./report-fixture.ts";

/** The fixture run's report, written once into the directory the file's tests share. */
const it = base
  .extend("run", { scope: "file" }, async ({ fileDir }) => {
    const run = await writeFixtureRun(fileDir);
    await writeRunReport(fileDir, run, "reports/x/index.html");
    return run;
  })
  .extend("html", { scope: "file" }, async ({ fileDir, run: _written }) =>
    readFile(path.join(fileDir, "index.html"), "utf8"),
  )
  .extend("markdown", { scope: "file" }, async ({ fileDir, run: _written }) =>
    readFile(path.join(fileDir, "summary.md"), "utf8"),
  );

describe("index.html", () => {
  it("puts the verdict first and lists every part with its verdict", ({ run, html }) => {
    const body = html.slice(html.indexOf("<body>"));
    expect(body.indexOf('id="verdict" data-verdict="failed"')).toBeLessThan(body.indexOf('class="parts"'));
    expect(body).toContain("Failed</h1>");
    for (const part of run.parts)
      expect(body).toContain(`id="part-${part.id}" data-part="${part.kind}" data-verdict="${part.verdict}"`);
    expect(body).toContain("could not run: k6 is missing");
  });

  it("groups checks by area, opens failures and errors, and shows each exchange with its curl", ({
    html,
  }) => {
    const areas = [...html.matchAll(/<div class="area"><h3>([^<]+)/g)].map((m) => m[1]?.trim());
    expect(areas).toEqual([
      "Token issuance",
      "Bearer requirement",
      "Event creation",
      "Token lifetime (sliding expiry)",
      "Credential rotation",
    ]);
    expect(html).toMatch(/<details class="check FAIL" id="check-bearer\.garbage" open>/);
    expect(html).toMatch(/<details class="check ERROR" id="check-events\.stored" open>/);
    expect(html).toMatch(/<details class="check PASS" id="check-token\.issued">/);
    expect(html).toContain("curl -sS -X POST");
    expect(html).toContain("ECONNRESET");
  });

  it("draws throughput, latency and token charts with data for the load part", ({ html }) => {
    for (const chart of ["throughput", "latency", "tokens"])
      expect(html).toContain(`id="load-sustained-${chart}"`);
    const points = [...html.matchAll(/data-series="([^"]+)" data-points="(\d+)"/g)].map((m) => [
      m[1],
      Number(m[2]),
    ]);
    expect(points).toContainEqual(["events accepted", 30]);
    expect(points).toContainEqual(["p95", 30]);
    expect(points).toContainEqual(["sliding-expiry violations", 1]);
    expect(html).toContain("Sliding expiry under load:");
  });

  it("escapes what the target said everywhere, so nothing it sends becomes markup", ({ html }) => {
    expect(html).not.toMatch(/<script>window\.pwned/);
    expect(html).not.toMatch(/<img /);
    expect(html).not.toContain("</pre><script>");
    expect(html).toContain(
      "&lt;/pre&gt;&lt;script&gt;window.pwned=1&lt;/script&gt;&lt;img src=x onerror=&quot;window.pwned=2&quot;&gt;&quot;&#39;&amp;",
    );
    expect(html.match(/<script>/g)).toHaveLength(1);
  });

  it("allows only its own style and script by hash, and no network", ({ html }) => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? "";
    expect(csp).toContain("default-src 'none'");
    const hash = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
    expect(csp).toContain(`style-src ${hash(style)}`);
    expect(csp).toContain(`script-src ${hash(script)}`);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html).not.toMatch(/ style="/);
  });

  it("links only to files that exist next to it", async ({ fileDir: dir, html }) => {
    const links = [...html.matchAll(/href="([^"#][^"]*)"/g)].map((m) => m[1] as string);
    expect(links).toEqual(
      expect.arrayContaining([
        "load-sustained/dashboard.html",
        "load-sustained/junit.xml",
        "contract/results.json",
        "run.json",
        "summary.md",
      ]),
    );
    for (const link of links)
      await expect(stat(path.join(dir, decodeURIComponent(link)))).resolves.toBeTruthy();
  });
});

describe("summary.md", () => {
  it("leads with the verdict, one row per part, and every problem in one list", ({ markdown }) => {
    expect(markdown.split("\n")[0]).toBe(
      "## ❌ Failed — contract, load-sustained failed; load-idle-gap could not decide; 1 of 4 parts passed (embedded sandbox — not your API)",
    );
    expect(markdown).toContain(
      "| ❌ | Contract suite (full profile) | 7 checks: 1 FAIL (bearer.garbage), 1 ERROR (events.stored), 1 WARN, 4 PASS | 9.8 s |",
    );
    expect(markdown).toContain("| ⛔ | Load: idle-gap | could not run: k6 is missing | 9.8 s |");
    expect(markdown).toContain(
      "- ❌ **contract** `bearer.garbage`: expected 401, received 500 \\</pre\\>\\<script\\>",
    );
    expect(markdown).toContain(
      "- ❌ **load-sustained** threshold `token_expiries{kind:unexpected}` `count==0` (count=1)",
    );
    expect(markdown).toContain("- ⛔ **load-idle-gap**: could not run: k6 is missing");
    // A GFM reader finds raw HTML only in the harness's own folds, none of it the target's.
    const live = liveNodes(markdown).map((node) => JSON.stringify(node));
    expect(live.length).toBeGreaterThan(0);
    expect(live.filter((node) => /script|img|pwned/.test(node))).toEqual([]);
    // A part's own summary is folded in, its headings moved under the run's.
    expect(markdown).toContain("#### ❌ Contract broken — 1 FAIL");
  });
});

describe("verdicts and the final sweep", () => {
  it("combines part verdicts: failed beats undecided beats passed", () => {
    const of = (...verdicts: Array<"passed" | "failed" | "undecided" | "skipped">) =>
      combineVerdicts(verdicts.map((verdict) => ({ verdict })));
    expect(of("passed", "passed")).toBe("passed");
    expect(of("passed", "undecided", "failed")).toBe("failed");
    expect(of("passed", "undecided")).toBe("undecided");
    expect(of("passed", "skipped")).toBe("undecided");
    expect(of()).toBe("undecided");
  });

  it("calls an interrupted run aborted whatever its parts did", () => {
    expect(combineVerdicts([{ verdict: "passed" }, { verdict: "skipped" }], true)).toBe("aborted");
    expect(combineVerdicts([{ verdict: "failed" }, { verdict: "aborted" }], true)).toBe("aborted");
    expect(combineVerdicts([{ verdict: "passed" }], false)).toBe("passed");
  });
});

describe("a run made with --insecure", () => {
  it("says at the top of index.html and summary.md that TLS certificates were not verified", async ({
    html,
    markdown,
    tmpDir: insecureDir,
  }) => {
    {
      const fixture = await writeFixtureRun(insecureDir);
      const target = {
        embedded: false,
        tokenUrl: "https://auth.example.com/realms/r/protocol/openid-connect/token",
        baseUrl: "https://api.example.com",
        clientAuth: "basic",
        insecure: true,
      };
      await writeRunReport(insecureDir, { ...fixture, target }, "reports/x/index.html");
      const page = await readFile(path.join(insecureDir, "index.html"), "utf8");
      const summary = await readFile(path.join(insecureDir, "summary.md"), "utf8");
      const warning = INSECURE_WARNING.replaceAll("'", "&#39;");
      expect(page).toContain(warning);
      expect(page.indexOf(warning)).toBeLessThan(page.indexOf('class="parts"'));
      expect(summary).toContain(`> [!WARNING]\n> ${INSECURE_WARNING}`);
      expect(summary).toContain(
        "(token endpoint `https://auth.example.com/realms/r/protocol/openid-connect/token`)",
      );
      expect(page).not.toContain("not your API");
      expect(summary).not.toContain("not your API");
      expect(html).not.toContain("TLS certificates were not verified");
      expect(markdown).not.toContain("TLS certificates were not verified");
    }
  });
});

describe("a run against the embedded sandbox", () => {
  it("is marked as a demo in the HTML banner and the summary.md headline", ({ html, markdown }) => {
    const banner = html.slice(html.indexOf('<header class="banner'), html.indexOf("</header>"));
    expect(banner).toContain('<p class="demo" role="note">Demo: embedded sandbox — not your API.');
    const headline = markdown.split("\n")[0] ?? "";
    expect(headline).toMatch(/^## .* parts passed \(embedded sandbox — not your API\)$/);
    expect(markdown).toContain("against the embedded sandbox — not your API,");
  });
});
