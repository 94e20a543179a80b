import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const COMMAND = fileURLToPath(new URL("../../../cli/commands/load.ts", import.meta.url));
const OPTIONS = fileURLToPath(new URL("../../../cli/options/load-options.ts", import.meta.url));

describe("the load command file", () => {
  it("imports only light modules up front; the machinery is loaded when the command runs", async () => {
    const source = await readFile(COMMAND, "utf8");
    const staticImports = [...source.matchAll(/^import [^;]* from "([^"]+)";$/gm)].map((m) => m[1]);
    expect(staticImports.sort()).toEqual([
      "../../load/index.ts",
      // Its top-level files only (formatDurationCompact for the help's defaults): no Node APIs, no packages.
      "../../reporting/index.ts",
      "../command.ts",
      "../options/load-options.ts",
    ]);
    // The options file holds definitions only: the comparison and ledger machinery load when the command runs.
    const optionsSource = await readFile(OPTIONS, "utf8");
    const optionImports = [...optionsSource.matchAll(/^import [^;]* from "([^"]+)";$/gm)].map((m) => m[1]);
    expect(optionImports.sort()).toEqual([
      "../../load/index.ts",
      // Types only: the spec's shape.
      "../command.ts",
      "./capacity-options.ts",
      "./gate-options.ts",
      "./target-options.ts",
    ]);
    expect(source).toContain('await import("../load/index.ts")');
    expect(source.split("\n").length).toBeLessThan(130);
  });
});

describe("the comparison options' help", () => {
  it("states the defaults DEFAULT_COMPARE_OPTIONS applies", async () => {
    const { compareOptionDefinitions } = await import("../../../cli/options/gate-options.ts");
    const { DEFAULT_COMPARE_OPTIONS: d } = await import("../../../reporting/compare/index.ts");
    const shown = (name: keyof typeof compareOptionDefinitions) =>
      Number(/\(default (\d+(?:\.\d+)?)/.exec(compareOptionDefinitions[name].description)?.[1]);
    expect(shown("min-change-pct")).toBe(d.latencyFloor.relative * 100);
    expect(shown("min-change-ms")).toBe(d.latencyFloor.absolute);
    expect(shown("min-change-failure-pct")).toBe(d.failureFloor.absolute * 100);
    expect(shown("min-change-accepted-pct")).toBe(d.acceptedFloor.relative * 100);
    expect(shown("min-change-capacity-pct")).toBe(d.capacityFloor.relative * 100);
    expect(shown("window")).toBe(d.windowSeconds);
  });
});
