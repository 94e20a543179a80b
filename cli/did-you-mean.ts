/** Levenshtein distance; closestName calls it only for strings of about the same length as a known name, all short. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The known name closest to what the user typed, if it is close enough to be the likely intent. */
export function closestName(typed: string, known: readonly string[]): string | undefined {
  const wanted = typed.toLowerCase();
  // A third of the typed length (at least 1, at most 3) tells a typo from a different word.
  const limit = Math.min(3, Math.max(1, Math.floor(wanted.length / 3)));
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    // Lengths further apart than the limit are further apart in edits too: a long name from a file costs nothing.
    if (Math.abs(name.length - wanted.length) > limit && !name.toLowerCase().startsWith(wanted)) continue;
    const distance =
      name.toLowerCase().startsWith(wanted) && wanted.length >= 3
        ? 1
        : editDistance(wanted, name.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** `; did you mean 'x'?` to append to a message about an unknown name, or nothing when no name is close. */
export function didYouMean(typed: string, known: readonly string[], prefix = ""): string {
  const closest = closestName(typed, known);
  return closest === undefined ? "" : `; did you mean '${prefix}${closest}'?`;
}

/** ` (did you mean 'x'?)`, for a message that goes on after the name (e.g. a list of what is known). */
export function didYouMeanAside(typed: string, known: readonly string[]): string {
  const closest = closestName(typed, known);
  return closest === undefined ? "" : ` (did you mean '${closest}'?)`;
}
