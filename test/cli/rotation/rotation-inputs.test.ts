import { writeFile } from "node:fs/promises";
import path from "node:path";
import { checkRotationInputs, readRotationInputs } from "../../../cli/rotation/rotation-inputs.ts";
import { UsageError } from "../../../core/index.ts";
import { MAX_TOKEN_CHARS } from "../../../transport/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { usageRefusal } from "../../support/usage-refusal.ts";

const SOURCES = { oldSecret: "OLD_SECRET_SOURCE", oldToken: "OLD_TOKEN_SOURCE" };

function refusalOf(run: () => unknown): UsageError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error("expected a refusal");
}

describe("checkRotationInputs", () => {
  it("takes expectations with their inputs, and inputs without expectations", () => {
    expect(() =>
      checkRotationInputs(
        { oldSecret: "old", oldToken: "tok", expectOld: "refused", expectOldTokens: "valid" },
        "new",
        SOURCES,
        "cmd",
      ),
    ).not.toThrow();
    expect(() => checkRotationInputs({}, "new", SOURCES, "cmd")).not.toThrow();
  });

  it("names every expectation given without its input, in one refusal for the command", () => {
    const error = refusalOf(() =>
      checkRotationInputs({ expectOld: "accepted", expectOldTokens: "revoked" }, "new", SOURCES, "cmd"),
    );
    expect(error.code).toBe("missing-argument");
    expect(error.command).toBe("cmd");
    expect(error.message).toBe(
      "--expect-old accepted needs the secret from before the rotation (OLD_SECRET_SOURCE); " +
        "--expect-old-tokens revoked needs a token obtained before the rotation (OLD_TOKEN_SOURCE)",
    );
  });

  it("refuses an old token longer than the harness can hide, and takes one at the bound", () => {
    const atBound = "t".repeat(MAX_TOKEN_CHARS);
    expect(() => checkRotationInputs({ oldToken: atBound }, "new", SOURCES, "cmd")).not.toThrow();
    const error = refusalOf(() => checkRotationInputs({ oldToken: `${atBound}t` }, "new", SOURCES, "cmd"));
    expect(error.code).toBe("invalid-value");
    expect(error.message).toMatch(
      /^the old token \(OLD_TOKEN_SOURCE\) has [\d,]+ characters, more than the [\d,]+ /,
    );
    expect(error.message).toContain((MAX_TOKEN_CHARS + 1).toLocaleString("en-US"));
  });

  it("refuses the old secret given as the new one, without showing either", () => {
    const error = refusalOf(() => checkRotationInputs({ oldSecret: "same-7f" }, "same-7f", SOURCES, "cmd"));
    expect(error.code).toBe("invalid-config");
    expect(error.message).toMatch(/^the old secret \(OLD_SECRET_SOURCE\) is the same as the new one/);
    expect(error.message).not.toContain("same-7f");
  });
});

describe("readRotationInputs", () => {
  it("reads each value from its file without the trailing line break, or from its variable trimmed", async ({
    tmpDir,
  }) => {
    const secretFile = path.join(tmpDir, "old-secret");
    await writeFile(secretFile, "old secret \r\n");
    const read = await readRotationInputs(
      { "old-secret-file": secretFile },
      { EVENT_API_OLD_ACCESS_TOKEN: "  tok-1 \n" },
      "cmd",
    );
    expect(read).toEqual({ oldSecret: "old secret ", oldToken: "tok-1" });
    expect(await readRotationInputs({}, { EVENT_API_OLD_CLIENT_SECRET: "  " }, "cmd")).toEqual({});
  });

  it("refuses a file and a variable for the same value", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "tok");
    await writeFile(file, "tok");
    const error = await usageRefusal(
      readRotationInputs({ "old-token-file": file }, { EVENT_API_OLD_ACCESS_TOKEN: "tok" }, "cmd"),
    );
    expect(error.code).toBe("invalid-config");
    expect(error.message).toBe("give --old-token-file or EVENT_API_OLD_ACCESS_TOKEN, not both");
  });

  it("refuses an empty file and one it cannot read", async ({ tmpDir }) => {
    const empty = path.join(tmpDir, "empty");
    await writeFile(empty, " \n");
    expect((await usageRefusal(readRotationInputs({ "old-secret-file": empty }, {}, "cmd"))).message).toBe(
      `--old-secret-file ${empty} is empty`,
    );
    const missing = path.join(tmpDir, "missing");
    const unread = await usageRefusal(readRotationInputs({ "old-secret-file": missing }, {}, "cmd"));
    expect(unread.code).toBe("invalid-value");
    expect(unread.message).toMatch(new RegExp(`^--old-secret-file ${missing}: cannot read it: `));
  });
});
