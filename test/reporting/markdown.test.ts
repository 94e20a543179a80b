import { describe, expect, it } from "vitest";
import {
  codeCell,
  codeSpan,
  detailsBlock,
  escapePipes,
  inlineText,
  paragraphText,
  tableCell,
  tableHead,
  tableRow,
  warningCallout,
} from "../../reporting/index.ts";
import { codeSpanOf, paragraphOf, tableRowCells, textOf } from "../support/markdown-tree.ts";

describe("Markdown cells", () => {
  it("escapes pipes, and only pipes, for escapePipes", () => {
    expect(escapePipes("a|b || c\nd")).toBe("a\\|b \\|\\| c\nd");
  });

  it("keeps a table cell on one line with its pipes escaped", () => {
    expect(tableCell("a | b\n\tc  d ")).toBe("a \\| b c d ");
  });

  it("turns a target's text into one trimmed line whose HTML, entities, links and pipes are escaped", () => {
    expect(inlineText(' <img src=x onerror="1"> &amp; | \n [x](y) ')).toBe(
      '\\<img src=x onerror="1"\\> \\&amp; \\| \\[x\\](y)',
    );
  });
});

describe("Markdown code spans", () => {
  const texts = ["token.issued", "a`b", "`x`", "``", "a ``` b `", "p(95)<500", " a ", "   ", "a\nb"];

  it.each(texts)("reads back %j whole, whatever backticks it holds", (text) => {
    expect(codeSpanOf(paragraphOf(codeSpan(text)))).toBe(text.replace("\n", " "));
  });

  it("keeps ordinary text in single backticks and a span on one line", () => {
    expect(codeSpan("token.issued")).toBe("`token.issued`");
    expect(codeSpan("a`b")).toBe("``a`b``");
    expect(codeSpan("`x`")).toBe("`` `x` ``");
    expect(codeSpan("a\r\nb\nc")).toBe("`a b c`");
  });

  it("keeps a code span in a table cell whole, pipes and backticks included", () => {
    const row = tableRow(["x", codeCell("count<1`|`x"), "y"]);
    const cells = tableRowCells(row);
    expect(cells.map((cell) => textOf(cell))).toEqual(["x", "count<1`|`x", "y"]);
    expect(codeSpanOf(cells[1])).toBe("count<1`|`x");
  });
});

describe("Markdown blocks", () => {
  it("writes a header with a blank icon column, left and right aligned delimiters, and rows as given", () => {
    expect(tableHead(["", "Part", "n"], ["left", "left", "right"])).toEqual([
      "| | Part | n |",
      "|---|---|---:|",
    ]);
    expect(tableRow(["✅", codeSpan("token.issued"), 3])).toBe("| ✅ | `token.issued` | 3 |");
  });

  it("writes a GitHub warning callout and a details block whose body GitHub renders as Markdown", () => {
    expect(warningCallout("TLS not verified")).toBe("> [!WARNING]\n> TLS not verified");
  });

  it("keeps a callout's text inside it, on one line, as plain text", () => {
    expect(warningCallout("two\nlines <script>x</script>\n\n# not a heading")).toBe(
      "> [!WARNING]\n> two lines \\<script\\>x\\</script\\> \\# not a heading",
    );
    expect(warningCallout("> [!CAUTION]\nno")).toBe("> [!WARNING]\n> \\> \\[!CAUTION\\] no");
  });

  it("escapes what would open a block at the start of a line", () => {
    expect(paragraphText("# heading")).toBe("\\# heading");
    expect(paragraphText("- item")).toBe("\\- item");
    expect(paragraphText("===")).toBe("\\===");
    expect(paragraphText("```sh")).toBe("\\`\\`\\`sh");
    expect(paragraphText("[a]: /x")).toBe("\\[a\\]: /x");
    expect(paragraphText("[a]: http://x")).toBe("`[a]: http://x`");
    expect(paragraphText("1. first")).toBe("1\\. first");
    expect(paragraphText("12) twelfth")).toBe("12\\) twelfth");
    expect(paragraphText("1.5 s later")).toBe("1.5 s later");
    expect(paragraphText("3 token(s) were rejected - see # 6")).toBe("3 token(s) were rejected - see \\# 6");
    expect(paragraphText(":-")).toBe("\\:-");
    expect(detailsBlock("more", "| a |")).toBe("<details><summary>more</summary>\n\n| a |\n\n</details>");
  });
});
