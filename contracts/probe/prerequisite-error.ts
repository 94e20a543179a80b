/** A check could not reach the behaviour it tests because an earlier step failed; the check is SKIPped, naming why. */
export class PrerequisiteError extends Error {
  override readonly name = "PrerequisiteError";
}
