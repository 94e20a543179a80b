import { join } from "node:path";
import { describe, expect } from "../support/fixtures.ts";
import { oidcTest as it, OIDC_NEW_SECRET, OIDC_SECRET } from "../support/oidc-harness.ts";

/**
 * load idle-gap against a real third-party authorization server (oidc-provider 9, fixed lifetime from issue): its
 * cycles wait out the 10 s lifetime, about a minute in all.
 */

it.afterAll(({ oidc }) => {
  // No secret in any output, whatever the run gave.
  for (const output of oidc.outputs) {
    expect(output).not.toContain(OIDC_SECRET);
    expect(output).not.toContain(OIDC_NEW_SECRET);
  }
});

describe("oidc-provider as the target", () => {
  it("load idle-gap reports the expiry violations of a fixed lifetime", async ({ oidc, tmpDir }) => {
    const run = await oidc.harness([
      "load",
      "idle-gap",
      "--vus",
      "1",
      ...oidc.targetArgs(),
      "--report-dir",
      join(tmpDir, "idle-gap"),
    ]);
    expect(run.stdout).toContain("SLIDING EXPIRY: BROKEN");
    expect(run.stdout).toMatch(/✗ token_expiries\{kind:unexpected\} count==0 {2}\(count=[1-9]/);
    expect(run.code).toBe(1);
  }, 150_000);
});
