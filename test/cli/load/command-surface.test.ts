import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const COMMAND = fileURLToPath(new URL("../../../cli/commands/load.ts", import.meta.url));

describe("the load command file", () => {
  it("imports only light modules up front; the machinery is loaded when the command runs", async () => {
    const source = await readFile(COMMAND, "utf8");
    const staticImports = [...source.matchAll(/^import [^;]* from "([^"]+)";$/gm)].map((m) => m[1]);
    expect(staticImports.sort()).toEqual([
      "../../load/index.ts",
      // Its top-level files only (formatDurationCompact for the help's defaults): no Node APIs, no packages.
      "../../reporting/index.ts",
      "../accepted-option.ts",
      "../command.ts",
      "../target-options.ts",
    ]);
    expect(source).toContain('await import("../load/index.ts")');
    expect(source.split("\n").length).toBeLessThan(130);
  });
});
