import { randomBytes } from "node:crypto";
import type { FileHandle } from "node:fs/promises";
import { open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { UsageError } from "../../core/index.ts";
import { displayPath } from "../display-path.ts";

/**
 * A secret file made safely: a temporary file is created (exclusive, mode 0600) before anything is rotated, so an
 * unwritable path fails first; the secret then replaces the target by rename, which never follows a symlink there.
 */
export class SecretFile {
  private constructor(
    readonly target: string,
    readonly temporary: string,
    private readonly handle: FileHandle,
  ) {}

  static async prepare(file: string): Promise<SecretFile> {
    const target = path.resolve(file);
    const existing = await stat(target).catch(() => undefined);
    if (existing?.isDirectory()) {
      throw new UsageError("invalid-value", `--secret-file ${file} is a directory`, "sandbox-rotate");
    }
    const temporary = path.join(
      path.dirname(target),
      `.${path.basename(target)}.${randomBytes(6).toString("hex")}.tmp`,
    );
    try {
      return new SecretFile(target, temporary, await open(temporary, "wx", 0o600));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "error";
      throw new UsageError(
        "invalid-value",
        `--secret-file ${file}: cannot create a file in ${displayPath(path.dirname(target))} (${code})`,
        "sandbox-rotate",
      );
    }
  }

  /** Writes the secret (no trailing newline, so `$(cat FILE)` and file readers agree) and moves it into place. */
  async commit(secret: string): Promise<void> {
    try {
      await this.handle.writeFile(secret, "utf8");
      await this.handle.sync();
    } finally {
      await this.handle.close();
    }
    await rename(this.temporary, this.target);
  }

  async discard(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await rm(this.temporary, { force: true });
  }
}

/** The files one rotation writes, all prepared before anything is sent so an unwritable path fails first. */
export interface PreparedFiles {
  readonly secret?: SecretFile;
  readonly kept?: { readonly oldSecret: SecretFile; readonly oldToken: SecretFile };
  discard(): Promise<void>;
}

export async function prepareFiles(secretFile: string | undefined, keepOld: boolean): Promise<PreparedFiles> {
  const prepared: SecretFile[] = [];
  const discard = async () => {
    for (const file of prepared) await file.discard();
  };
  if (secretFile === undefined) return { discard };
  try {
    const names = keepOld
      ? [secretFile, `${secretFile}.old-secret`, `${secretFile}.old-token`]
      : [secretFile];
    for (const name of names) prepared.push(await SecretFile.prepare(name));
  } catch (error) {
    await discard();
    throw error;
  }
  const [secret, oldSecret, oldToken] = prepared;
  return {
    ...(secret === undefined ? {} : { secret }),
    ...(oldSecret === undefined || oldToken === undefined ? {} : { kept: { oldSecret, oldToken } }),
    discard,
  };
}
