import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { CONFIG_KEY_NAMES } from "../cli/config/index.ts";
import { ALL_CHECKS } from "../contracts/index.ts";
import { markdownNodes, markdownTree, textOf } from "./support/markdown-tree.ts";

const read = (file: string) => readFile(new URL(`../${file}`, import.meta.url), "utf8");
const readme = await read("README.md");

/** The first cell of every row of every table in `markdown`, as a reader sees it (inline code included). */
function firstCells(markdown: string): string[] {
  return markdownNodes(markdownTree(markdown))
    .filter((node) => node.type === "tableRow")
    .map((row) => ("children" in row && row.children[0] !== undefined ? textOf(row.children[0]) : ""));
}

/** Every row of every table in `markdown`, its cells' text. */
function tableRows(markdown: string): string[][] {
  return markdownNodes(markdownTree(markdown))
    .filter((node) => node.type === "tableRow")
    .map((row) => ("children" in row ? row.children.map((cell) => textOf(cell).trim()) : []));
}

describe("README", () => {
  it("keeps the quick start to the two commands that work on a fresh machine", () => {
    expect(readme).toContain("npm ci && npm start");
    expect(readme).toContain("npm ci && npm test");
  });

  it("is a user's page of at most 300 lines", () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(300);
  });

  it("lists every config key in a table row of its own", () => {
    const cells = firstCells(readme);
    for (const key of CONFIG_KEY_NAMES) expect(cells, key).toContain(key);
  });

  it("names every input and output of the GitHub Action", async () => {
    const action = parse(await read("action.yml")) as { inputs: object; outputs: object };
    for (const name of [...Object.keys(action.inputs), ...Object.keys(action.outputs)])
      expect(readme, name).toContain(`\`${name}\``);
  });

  it("states every exit code, INCONCLUSIVE's and --fail-on's included", () => {
    const codes = tableRows(readme).map((row) => row[0]);
    for (const code of ["0", "1", "2", "3"]) expect(codes).toContain(code);
    expect(readme).toContain("INCONCLUSIVE");
    expect(readme).toContain("--fail-on inconclusive");
  });
});

describe("the reference pages", () => {
  it("list every contract check with its level in docs/reference/checks.md", async () => {
    const rows = tableRows(await read("docs/reference/checks.md"));
    for (const check of ALL_CHECKS) {
      const row = rows.find((cells) => cells[0] === check.id);
      expect(row, check.id).toBeDefined();
      expect(row?.[1], check.id).toBe(check.level);
    }
  });

  it("list every config key in docs/reference/config.md", async () => {
    const cells = firstCells(await read("docs/reference/config.md"));
    for (const key of CONFIG_KEY_NAMES) expect(cells, key).toContain(key);
  });
});
