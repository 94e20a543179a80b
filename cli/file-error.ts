/** Why a path cannot be written, in words a user acts on, with the system's code for a search. */
const WORDS: Readonly<Record<string, string>> = {
  ENOTDIR: "a part of the path is not a directory",
  EEXIST: "it exists and is not a directory",
  EISDIR: "it is a directory",
  EACCES: "permission denied",
  EPERM: "the operation is not permitted",
  EROFS: "the file system is read-only",
  ENAMETOOLONG: "a name in the path is too long",
  ELOOP: "the path has a loop of symbolic links",
  ENOSPC: "no space is left on the device",
  EDQUOT: "the disk quota is used up",
  // Where a parent exists, ENOENT means the file system takes no new entries there (/proc, /sys).
  ENOENT: "the file system refuses new entries there",
};

/** A file system error's code, when it has one the user can act on; undefined for anything else. */
export function fileErrorCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" && Object.hasOwn(WORDS, code) ? code : undefined;
}

/** `not a directory (ENOTDIR)`; the error's own message when its code is not one of the known ones. */
export function describeFileError(error: unknown): string {
  const code = fileErrorCode(error);
  if (code !== undefined) return `${WORDS[code]} (${code})`;
  return error instanceof Error ? error.message : String(error);
}
