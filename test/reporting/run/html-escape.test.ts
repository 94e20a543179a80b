import { describe, expect, it } from "vitest";
import { escapeHtml, safeHref } from "../../../reporting/run/html-escape.ts";
import { markupElements } from "../../support/report-markup.ts";

describe("escapeHtml", () => {
  it("replaces the five characters that can end text or an attribute", () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;",
    );
  });

  it("writes any value as text, and leaves everything else as it is", () => {
    expect(escapeHtml(42)).toBe("42");
    expect(escapeHtml(undefined)).toBe("undefined");
    expect(escapeHtml("é ✓ \u0000")).toBe("é ✓ \u0000");
  });

  it("keeps hostile text as one text node, in content and in an attribute", () => {
    const hostile = `"><script>alert('x')</script><img src=x onerror=alert(1)>`;
    const elements = markupElements(`<p title="${escapeHtml(hostile)}">${escapeHtml(hostile)}</p>`);
    expect(elements).toEqual([{ tag: "p", attributes: { title: hostile }, text: hostile }]);
  });
});

describe("safeHref", () => {
  it("encodes each segment of a relative path and keeps its slashes", () => {
    expect(safeHref("load-sustained/summary.md")).toBe("load-sustained/summary.md");
    expect(safeHref("load #1/a b?.json")).toBe("load%20%231/a%20b%3F.json");
    expect(safeHref("part\\junit.xml")).toBe("part/junit.xml");
  });

  it("refuses a scheme, an absolute path or a way out of the report's folder", () => {
    for (const path of [
      "javascript:alert(1)",
      "DATA:text/html,x",
      "https://x",
      "/etc/passwd",
      "a/../../b",
      "..",
      "a\\..\\b",
    ]) {
      expect(() => safeHref(path), path).toThrow(RangeError);
    }
  });

  it("allows a name that merely holds dots or a colon after a slash", () => {
    expect(safeHref("a/..b/c:d")).toBe("a/..b/c%3Ad");
  });
});
