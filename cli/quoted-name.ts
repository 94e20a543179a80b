/** Characters of a name a message repeats: a longer one (a key of a file anyone may write) is cut, its length said. */
const SHOWN_CHARACTERS = 60;
/** Items of a list a message names before it counts the rest. */
const SHOWN_ITEMS = 10;

/** The name, or `the first 60 characters… (1000000 characters)` for a longer one. */
export function shortName(name: string): string {
  return name.length <= SHOWN_CHARACTERS
    ? name
    : `${name.slice(0, SHOWN_CHARACTERS)}… (${name.length} characters)`;
}

/** `'name'`, or `'the first 60 characters…' (1000000 characters)` for a longer one. */
export function quotedName(name: string): string {
  return name.length <= SHOWN_CHARACTERS
    ? `'${name}'`
    : `'${name.slice(0, SHOWN_CHARACTERS)}…' (${name.length} characters)`;
}

/**
 * The first ten items, each as `show` words it, joined by `separator`, then `and N more`: a message stays short, and
 * its cost small, whatever the file holds.
 */
export function someOf<T>(items: readonly T[], separator = ", ", show: (item: T) => string = String): string {
  const shown = items.slice(0, SHOWN_ITEMS).map(show).join(separator);
  return items.length <= SHOWN_ITEMS ? shown : `${shown}${separator}and ${items.length - SHOWN_ITEMS} more`;
}
