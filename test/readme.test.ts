import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { ALL_CHECKS } from "../contracts/index.ts";

const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");

describe("README", () => {
  it("keeps the quick start to the two commands that work on a fresh machine", () => {
    expect(readme).toContain("npm ci && npm start");
    expect(readme).toContain("npm ci && npm test");
  });

  it("lists every contract check with its level and rule", () => {
    for (const check of ALL_CHECKS) {
      const id = check.id.replaceAll(".", "\\.");
      expect(readme).toMatch(new RegExp(`^\\| \`${id}\` +\\| ${check.level} +\\|`, "m"));
    }
  });
});
