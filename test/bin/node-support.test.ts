import {
  describeEngines,
  parseEnginesRange,
  satisfiesEngines,
  unsupportedNodeSentence,
} from "../../bin/node-support.js";
import packageJson from "../../package.json" with { type: "json" };
import { describe, expect, it } from "../support/fixtures.ts";

const ENGINES = packageJson.engines.node;

describe("the Node.js versions the harness runs on, read from package.json's engines", () => {
  it("reads the package's own range, so the check cannot silently stop judging", () => {
    expect(parseEnginesRange(ENGINES)).toBeDefined();
    expect(satisfiesEngines(process.versions.node, ENGINES)).toBe(true);
  });

  it.each([
    ["20.19.0", true],
    ["20.20.2", true],
    ["22.13.0", true],
    ["22.22.1", true],
    ["24.0.0", true],
    ["26.1.0", true],
    ["24.0.0-nightly20250101abc", true],
    ["18.20.8", false],
    ["16.20.2", false],
    ["20.18.3", false],
    ["21.7.3", false],
    ["22.12.0", false],
    ["23.11.1", false],
  ])("Node.js %s: %s", (version, supported) => {
    expect(satisfiesEngines(version, "^20.19.0 || ^22.13.0 || >=24")).toBe(supported);
  });

  it("caret, at-least and exact comparators, and partial versions", () => {
    expect(satisfiesEngines("1.2.3", "^1.2")).toBe(true);
    expect(satisfiesEngines("2.0.0", "^1.2")).toBe(false);
    expect(satisfiesEngines("0.2.9", "^0.2.3")).toBe(true);
    expect(satisfiesEngines("0.3.0", "^0.2.3")).toBe(false);
    expect(satisfiesEngines("0.0.4", "^0.0.3")).toBe(false);
    expect(satisfiesEngines("20.0.0", ">=20")).toBe(true);
    expect(satisfiesEngines("19.9.9", ">=20")).toBe(false);
    expect(satisfiesEngines("20.1.0", "20.1.0")).toBe(true);
    expect(satisfiesEngines("20.1.1", "20.1.0")).toBe(false);
  });

  it("a range or version it cannot read judges nothing (undefined): it never refuses on a doubt", () => {
    for (const range of ["", "~20.1.0", ">=20 <22", "20.x", "latest", "^20 ||", ">20"]) {
      expect(parseEnginesRange(range), range).toBeUndefined();
      expect(satisfiesEngines("18.0.0", range), range).toBeUndefined();
    }
    expect(satisfiesEngines("not-a-version", ENGINES)).toBeUndefined();
    expect(
      unsupportedNodeSentence("18.20.8", { name: "x", version: "1.0.0", engines: { node: "~20" } }),
    ).toBe(undefined);
    expect(unsupportedNodeSentence("18.20.8", { name: "x", version: "1.0.0" })).toBeUndefined();
  });

  it("says the range in words", () => {
    expect(describeEngines("^20.19.0 || ^22.13.0 || >=24")).toBe(
      "20.19 or a later 20.x, 22.13 or a later 22.x, or 24 or later",
    );
    expect(describeEngines("^20.0.0")).toBe("any 20.x");
    expect(describeEngines(">=20.19.1")).toBe("20.19.1 or later");
    expect(describeEngines("^0.2.3 || 1.2.3")).toBe("0.2.3 up to 0.3.0, or 1.2.3");
  });

  it("refuses an unsupported Node.js in one sentence naming the supported versions and the harness", () => {
    expect(unsupportedNodeSentence(process.versions.node, packageJson)).toBeUndefined();
    expect(unsupportedNodeSentence("18.20.8", packageJson)).toBe(
      `Node.js 18.20.8 is not supported: event-api-harness ${packageJson.version} runs on Node.js 20.19 or a later 20.x, ` +
        `22.13 or a later 22.x, or 24 or later (package.json engines: ${ENGINES}); install one of those and run it again`,
    );
  });
});
