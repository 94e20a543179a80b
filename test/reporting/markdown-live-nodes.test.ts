import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LoadComparison } from "../../reporting/compare/index.ts";
import { renderComparisonMarkdown } from "../../reporting/compare/render-comparison.ts";
import {
  detailsBlock,
  htmlText,
  inlineCell,
  inlineText,
  paragraphText,
  tableHead,
  tableRow,
  warningCallout,
} from "../../reporting/index.ts";
import { LINKS_TEXT, MARKUP_TEXT } from "../support/markdown-hostile-api.ts";
import { liveNodes, markdownNodes, markdownTree, textOf } from "../support/markdown-tree.ts";

// The oracle is a GFM reader (micromark): what it finds live in a summary, GitHub renders live.
/** Pieces of text with a meaning in CommonMark, GFM or GitHub's renderer, and plain words between them. */
const PIECES = [
  "[",
  "]",
  "(",
  ")",
  "!",
  "<",
  ">",
  "&",
  "amp;",
  "#",
  "x5b;",
  "\\",
  "`",
  "*",
  "_",
  "~",
  "|",
  "$",
  ":",
  "-",
  "=",
  "+",
  ".",
  "1",
  "/",
  "@",
  "'",
  '"',
  " ",
  "\n",
  "\t",
  "a",
  "img src=x",
  "https://evil.example/p",
  "www.evil.example",
  "ops@evil.example",
  "ftp://evil.example",
  "javascript:alert(1)",
  "<b>",
  "</details>",
  "[^1]",
  "[x]: /y",
];
const hostileText = fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }).map((pieces) => pieces.join(""));

/** The text a reader sees for `text`: one line, trimmed, as typed. */
const shown = (text: string) => text.replace(/\s+/g, " ").trim();

/** Each place a summary puts a target's text, and the node the reader sees it in. */
const CONTEXTS: ReadonlyArray<readonly [string, (text: string) => string, string]> = [
  ["a list item", (text) => `- ${inlineText(text)}`, "listItem"],
  ["a heading", (text) => `## Verdict: ${inlineText(text)}`, "heading"],
  ["a paragraph's start", (text) => paragraphText(text), "root"],
  ["a callout", (text) => warningCallout(text), "blockquote"],
  ["bold text", (text) => `**Result: ${inlineText(text)}**`, "strong"],
  [
    "a table cell",
    (text) => [...tableHead(["a", "b"]), tableRow(["x", inlineCell(text)])].join("\n"),
    "tableCell",
  ],
];

describe("a target's text in summary.md stays text a reader sees as typed", () => {
  for (const [where, write, kind] of CONTEXTS) {
    it(`in ${where}: no link, image or HTML, and the whole text shown`, () => {
      fc.assert(
        fc.property(hostileText, (text) => {
          const markdown = write(text);
          expect(liveNodes(markdown), markdown).toEqual([]);
          const nodes = markdownNodes(markdownTree(markdown)).filter((node) => node.type === kind);
          const seen = nodes.map((node) => textOf(node)).join("");
          expect(seen, markdown).toContain(shown(text));
        }),
        { numRuns: 200, seed: 34 },
      );
    });
  }

  it("the hostile API's own texts, in every context", () => {
    for (const text of [LINKS_TEXT, MARKUP_TEXT, `${LINKS_TEXT}\n${MARKUP_TEXT}`]) {
      for (const [where, write] of CONTEXTS) expect(liveNodes(write(text)), where).toEqual([]);
    }
  });

  it("a fold's summary is raw HTML, where only its HTML is escaped", () => {
    const markdown = detailsBlock(htmlText("Contract <img src=x> & co"), "body");
    const html = liveNodes(markdown).map((node) => ("value" in node ? node.value : ""));
    expect(html).toEqual(["<details><summary>Contract &lt;img src=x&gt; &amp; co</summary>", "</details>"]);
  });
});

describe("compare's summary section", () => {
  it("names a baseline whose path, and notes whose origin, hold Markdown without a live node", () => {
    const nothingJudged: LoadComparison = {
      figures: [],
      windows: [],
      windowsJudged: 0,
      windowSeconds: 10,
      notes: ["another origin: https://a.example → https://[b](https://evil.example)"],
    };
    const markdown = renderComparisonMarkdown(
      nothingJudged,
      "baselines/[approved](https:__evil.example)_<img src=x>.json",
    );
    expect(liveNodes(markdown)).toEqual([]);
    expect(textOf(markdownTree(markdown))).toContain(
      "baselines/[approved](https:__evil.example)_<img src=x>.json",
    );
  });
});
