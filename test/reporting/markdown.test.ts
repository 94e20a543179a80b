import { describe, expect, it } from "vitest";
import {
  codeSpan,
  detailsBlock,
  escapePipes,
  inlineText,
  tableCell,
  tableHead,
  tableRow,
  warningCallout,
} from "../../reporting/index.ts";

describe("Markdown cells", () => {
  it("escapes pipes, and only pipes, for escapePipes", () => {
    expect(escapePipes("a|b || c\nd")).toBe("a\\|b \\|\\| c\nd");
  });

  it("keeps a table cell on one line with its pipes escaped", () => {
    expect(tableCell("a | b\n\tc  d ")).toBe("a \\| b c d ");
  });

  it("turns a target's text into one trimmed line that carries no HTML and no pipe", () => {
    expect(inlineText(' <img src=x onerror="1"> & | \n x ')).toBe(
      '&lt;img src=x onerror="1"&gt; &amp; \\| x',
    );
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
    expect(detailsBlock("more", "| a |")).toBe("<details><summary>more</summary>\n\n| a |\n\n</details>");
  });
});
