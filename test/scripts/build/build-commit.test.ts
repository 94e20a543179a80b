import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { buildCommit } from "../../../scripts/build/build-cli.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const HASH = "0123456789abcdef0123456789abcdef01234567";

describe("the commit a build records", () => {
  it("is the checkout's, as git says, whatever EVENT_HARNESS_COMMIT says", () => {
    const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
    expect(buildCommit({ EVENT_HARNESS_COMMIT: HASH }).commit).toBe(head);
  });

  it("outside a checkout (a Docker build context), EVENT_HARNESS_COMMIT when it is a commit hash, else unknown", ({
    tmpDir,
  }) => {
    expect(buildCommit({ EVENT_HARNESS_COMMIT: ` ${HASH.toUpperCase()}\n` }, tmpDir)).toEqual({
      commit: HASH,
      modified: false,
    });
    expect(buildCommit({ EVENT_HARNESS_COMMIT: "main" }, tmpDir).commit).toBeNull();
    expect(buildCommit({}, tmpDir).commit).toBeNull();
  });
});
