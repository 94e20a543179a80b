import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import packageJson from "../package.json" with { type: "json" };

type Version = readonly [number, number, number];

/** The lowest Node version of `major` a range allows (`^a.b.c`, `>=a.b.c`, `a.b.c - …` not used), or undefined. */
function lowestOf(range: string, major: number): Version | undefined {
  const allowed: Version[] = [];
  for (const clause of range.split("||").map((part) => part.trim())) {
    const match = /^(\^|>=)(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(clause);
    if (match === null) throw new Error(`a range form this test does not read: '${clause}'`);
    const version: Version = [Number(match[2]), Number(match[3] ?? 0), Number(match[4] ?? 0)];
    if (match[1] === "^" && version[0] === major) allowed.push(version);
    if (match[1] === ">=" && version[0] <= major)
      allowed.push(version[0] === major ? version : [major, 0, 0]);
  }
  return allowed.sort((a, b) => a[1] - b[1] || a[2] - b[2])[0];
}

const atLeast = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

describe("package.json engines", () => {
  it("allows no Node version a runtime dependency refuses", async () => {
    const ours = packageJson.engines.node;
    for (const name of Object.keys(packageJson.dependencies)) {
      const dependency = JSON.parse(
        await readFile(new URL(`../node_modules/${name}/package.json`, import.meta.url), "utf8"),
      ) as { engines?: { node?: string } };
      const theirs = dependency.engines?.node;
      if (theirs === undefined) continue;
      for (let major = 18; major <= 26; major += 1) {
        const mine = lowestOf(ours, major);
        if (mine === undefined) continue;
        const needed = lowestOf(theirs, major);
        expect(needed, `${name} (${theirs}) refuses Node ${major}, which engines allows`).toBeDefined();
        if (needed !== undefined)
          expect(atLeast(mine, needed), `${name} needs ${needed.join(".")}`).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it("keeps Node 20 at the floor its dependencies set", () => {
    // undici 7 asks for >=20.18.1; faker for 20.19: the higher floor is the one.
    expect(lowestOf(packageJson.engines.node, 20)).toEqual([20, 19, 0]);
  });
});
