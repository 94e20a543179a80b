import { lstat, mkdir, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { prepareFiles, SecretFile } from "../../../cli/rotation/secret-files.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { usageRefusal } from "../../support/usage-refusal.ts";

describe("SecretFile", () => {
  it("holds a 0600 temporary file until commit, then puts the secret alone in place", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "secret");
    const prepared = await SecretFile.prepare(file);
    expect(prepared.target).toBe(file);
    expect(path.dirname(prepared.temporary)).toBe(tmpDir);
    expect((await stat(prepared.temporary)).mode & 0o777).toBe(0o600);
    expect(await readdir(tmpDir)).toEqual([path.basename(prepared.temporary)]);
    await prepared.commit("s3cret with spaces");
    expect(await readFile(file, "utf8")).toBe("s3cret with spaces");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(tmpDir)).toEqual(["secret"]);
  });

  it("replaces a symlink at the path instead of writing through it", async ({ tmpDir }) => {
    const elsewhere = path.join(tmpDir, "elsewhere");
    await writeFile(elsewhere, "untouched");
    const file = path.join(tmpDir, "secret");
    await symlink(elsewhere, file);
    await (await SecretFile.prepare(file)).commit("new");
    expect((await lstat(file)).isSymbolicLink()).toBe(false);
    expect(await readFile(file, "utf8")).toBe("new");
    expect(await readFile(elsewhere, "utf8")).toBe("untouched");
  });

  it("discard leaves nothing behind and no file at the path", async ({ tmpDir }) => {
    const prepared = await SecretFile.prepare(path.join(tmpDir, "secret"));
    await prepared.discard();
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it("refuses a directory and a path whose directory cannot take a file", async ({ tmpDir }) => {
    const directory = await usageRefusal(SecretFile.prepare(tmpDir));
    expect(directory.code).toBe("invalid-value");
    expect(directory.message).toBe(`--secret-file ${tmpDir} is a directory`);
    const missing = await usageRefusal(SecretFile.prepare(path.join(tmpDir, "no", "secret")));
    expect(missing.message).toMatch(/^--secret-file .*no\/secret: cannot create a file in .*no \(ENOENT\)$/);
    expect(missing.command).toBe("sandbox-rotate");
  });
});

describe("prepareFiles", () => {
  it("prepares nothing without a secret file", async () => {
    const files = await prepareFiles(undefined, true);
    expect(files.secret).toBeUndefined();
    expect(files.kept).toBeUndefined();
    await files.discard();
  });

  it("prepares the secret alone, or with the old secret and token beside it", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "s");
    const alone = await prepareFiles(file, false);
    expect(alone.secret?.target).toBe(file);
    expect(alone.kept).toBeUndefined();
    await alone.discard();
    const kept = await prepareFiles(file, true);
    expect(kept.kept?.oldSecret.target).toBe(`${file}.old-secret`);
    expect(kept.kept?.oldToken.target).toBe(`${file}.old-token`);
    expect(await readdir(tmpDir)).toHaveLength(3);
    await kept.discard();
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it("discards what it prepared when a later file cannot be", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "s");
    await mkdir(`${file}.old-token`);
    await usageRefusal(prepareFiles(file, true));
    expect(await readdir(tmpDir)).toEqual(["s.old-token"]);
  });
});
