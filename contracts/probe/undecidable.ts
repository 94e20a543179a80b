/** The answers came, but too late to tell a broken rule from a slow machine: the check is ERROR, never FAIL. */
export class Undecidable extends Error {
  override readonly name = "Undecidable";
}
