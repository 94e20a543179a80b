import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { renderPage } from "../../../reporting/run/html-page.ts";
import { REPORT_SCRIPT } from "../../../reporting/run/html-script.ts";
import { REPORT_CSS } from "../../../reporting/run/html-styles.ts";

/** The policy's directives by name, as a browser splits the meta element's content. */
function policy(page: string): Map<string, string[]> {
  const content = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(page)?.[1] ?? "";
  return new Map(
    content.split(";").map((directive) => {
      const [name = "", ...values] = directive.trim().split(/\s+/);
      return [name, values] as const;
    }),
  );
}

const hashOf = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

describe("renderPage", () => {
  it("allows only the page's own style and script, by the hash of what it inlines, and no network", () => {
    const page = renderPage("t", "<p>body</p>");
    const csp = policy(page);
    expect(csp.get("default-src")).toEqual(["'none'"]);
    expect(csp.get("style-src")).toEqual([hashOf(REPORT_CSS)]);
    expect(csp.get("script-src")).toEqual([hashOf(REPORT_SCRIPT)]);
    expect(csp.get("img-src")).toEqual(["data:"]);
    expect(csp.get("base-uri")).toEqual(["'none'"]);
    expect(csp.get("form-action")).toEqual(["'none'"]);
    // The hashes hold only for exactly what the page inlines.
    expect(/<style>([\s\S]*?)<\/style>/.exec(page)?.[1]).toBe(REPORT_CSS);
    expect(/<script>([\s\S]*?)<\/script>/.exec(page)?.[1]).toBe(REPORT_SCRIPT);
  });

  it("is a whole UTF-8 document that sends no referrer, with the body as given", () => {
    const page = renderPage("t", '<main id="m">x</main>');
    expect(page.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(page).toContain('<meta charset="utf-8">');
    expect(page).toContain('<meta name="referrer" content="no-referrer">');
    expect(page).toContain('<body><main id="m">x</main><script>');
    expect(page.endsWith("</html>\n")).toBe(true);
  });

  it("escapes the title, which may hold a run id", () => {
    const page = renderPage('</title><script>alert(1)</script> & "x"', "");
    expect(/<title>([^<]*)<\/title>/.exec(page)?.[1]).toBe(
      "&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;",
    );
    expect(page.match(/<script>/g)).toHaveLength(1);
  });
});
