import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { loadBuildOptions } from "../../../k6-tooling/bundle/bundle-load.ts";
import { SCENARIO_NAMES } from "../../../load/index.ts";
import { packedFiles } from "../../support/packed-files.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

describe("the packed package", () => {
  // An installed harness bundles the scenarios from its own sources at run time: a file they import but the
  // package leaves out makes every load run from the tarball fail.
  it("ships every source file the k6 scenarios' bundles are built from", async () => {
    const packed = await packedFiles();
    expect(packed.has("load/scenarios/sustained.ts")).toBe(true);

    const result = await build({
      ...loadBuildOptions(SCENARIO_NAMES, path.join(ROOT, "dist", "load-packed-check")),
      absWorkingDir: ROOT,
      metafile: true,
    });
    const inputs = Object.keys(result.metafile.inputs).map((input) => input.split(path.sep).join("/"));
    expect(inputs.length).toBeGreaterThan(SCENARIO_NAMES.length);
    expect(inputs.filter((input) => !packed.has(input))).toEqual([]);
  });
});
