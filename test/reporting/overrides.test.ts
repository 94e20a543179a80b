import { describe, expect, it } from "vitest";
import { overridesCell, overridesMarkdown } from "../../reporting/index.ts";
import { codeSpanOf, liveNodes, paragraphOf, tableRowCells, textOf } from "../support/markdown-tree.ts";

describe("overridesMarkdown", () => {
  it("is empty when the user overrode nothing", () => {
    expect(overridesMarkdown(undefined)).toBe("");
    expect(overridesMarkdown([])).toBe("");
  });

  it("names each override in its own code span, whatever backticks or markup the name holds", () => {
    const names = ["--token-param audience", "--token-param a`b", "<img src=x>"];
    const markdown = overridesMarkdown(names);
    const paragraph = paragraphOf(markdown);
    const spans = paragraph.children.filter((node) => node.type === "inlineCode").map((node) => textOf(node));
    expect(spans).toEqual(names);
    expect(textOf(paragraph)).toBe(`Overrides: ${names.join(", ")}.`);
    expect(liveNodes(markdown)).toEqual([]);
  });
});

describe("overridesCell", () => {
  it("keeps a name with a pipe inside its one table cell", () => {
    const cells = tableRowCells(`| ${overridesCell(["--token-param a|b"])} |`);
    expect(cells).toHaveLength(1);
    expect(codeSpanOf(cells[0])).toBe("--token-param a|b");
  });

  it("lists several names, separated by commas", () => {
    const cells = tableRowCells(`| ${overridesCell(["--scope", "--resource"])} |`);
    expect(cells.map((cell) => textOf(cell))).toEqual(["--scope, --resource"]);
  });
});
