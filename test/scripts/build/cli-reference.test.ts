import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { commands } from "../../../cli/commands/index.ts";
import { CLI_REFERENCE_PATH, renderCliReference } from "../../../scripts/build/cli-reference.ts";
import { markdownNodes, markdownTree, textOf } from "../../support/markdown-tree.ts";

const page = await readFile(new URL(`../../../${CLI_REFERENCE_PATH}`, import.meta.url), "utf8");

describe("the CLI reference page", () => {
  it("is what every command's --help prints today (npm run build:cli-reference writes it)", async () => {
    expect(page).toBe(await renderCliReference());
  });

  it("has a section per command whose help names every option the command takes", async () => {
    const tree = markdownTree(page);
    const nodes = markdownNodes(tree);
    for (const entry of commands) {
      const heading = nodes.findIndex((node) => node.type === "heading" && textOf(node) === entry.name);
      expect(heading, entry.name).toBeGreaterThan(0);
      const block = nodes.slice(heading).find((node) => node.type === "code");
      const help = block === undefined ? "" : textOf(block);
      expect(help).toContain(`event-harness ${entry.name} — `);
      const command = await entry.load();
      for (const option of Object.keys(command.options)) expect(help, entry.name).toContain(`--${option}`);
    }
  });
});
