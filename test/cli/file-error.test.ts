import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describeFileError, fileErrorCode } from "../../cli/file-error.ts";
import { describe, expect, it } from "../support/fixtures.ts";

const errno = (code: string) => Object.assign(new Error(`${code}: raw system text`), { code });

describe("fileErrorCode", () => {
  it("gives the code of an error the user can act on, and nothing for any other", () => {
    expect(fileErrorCode(errno("EACCES"))).toBe("EACCES");
    expect(fileErrorCode(errno("ENOSPC"))).toBe("ENOSPC");
    expect(fileErrorCode(errno("EBUSY"))).toBeUndefined();
    expect(fileErrorCode(errno("toString"))).toBeUndefined();
    expect(fileErrorCode(new Error("no code"))).toBeUndefined();
    expect(fileErrorCode(undefined)).toBeUndefined();
  });
});

describe("describeFileError", () => {
  it("says a known error in words with its code for a search", () => {
    expect(describeFileError(errno("ENOTDIR"))).toBe("a part of the path is not a directory (ENOTDIR)");
    expect(describeFileError(errno("EROFS"))).toBe("the file system is read-only (EROFS)");
    expect(describeFileError(errno("ENOENT"))).toBe("the file system refuses new entries there (ENOENT)");
  });

  it("falls back to the error's own message, or its text for a thrown non-error", () => {
    expect(describeFileError(errno("EBUSY"))).toBe("EBUSY: raw system text");
    expect(describeFileError("plain text")).toBe("plain text");
    // A code that names a property every object has is no known code either.
    expect(describeFileError(errno("constructor"))).toBe("constructor: raw system text");
  });

  it("words what the file system really answers", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "file");
    await writeFile(file, "");
    const error = await mkdir(path.join(file, "sub")).catch((thrown: unknown) => thrown);
    expect(describeFileError(error)).toBe("a part of the path is not a directory (ENOTDIR)");
    const exists = await mkdir(file).catch((thrown: unknown) => thrown);
    expect(describeFileError(exists)).toBe("it exists and is not a directory (EEXIST)");
  });
});
