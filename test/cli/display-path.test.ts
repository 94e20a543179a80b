import path from "node:path";
import { describe, expect, it } from "vitest";
import { displayPath } from "../../cli/display-path.ts";

describe("displayPath", () => {
  it("shows a path inside the working directory relative to it", () => {
    expect(displayPath(path.join(process.cwd(), "reports", "run.json"))).toBe(
      path.join("reports", "run.json"),
    );
  });

  it("keeps a path outside the working directory, and the directory itself, as given", () => {
    const outside = path.join(path.dirname(process.cwd()), "elsewhere", "x.json");
    expect(displayPath(outside)).toBe(outside);
    expect(displayPath(process.cwd())).toBe(process.cwd());
    expect(displayPath("/")).toBe("/");
  });

  it("does not take a folder inside whose name starts with '..' for the parent", () => {
    const sibling = path.join(process.cwd(), "..hidden", "f");
    expect(displayPath(sibling)).toBe(path.join("..hidden", "f"));
  });
});
