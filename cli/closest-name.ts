/** Levenshtein distance between two short names (options, keys, environments), case-insensitive. */
export function editDistance(a: string, b: string): number {
  const left = a.toLowerCase();
  const right = b.toLowerCase();
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i++) {
    const current = [i];
    for (let j = 1; j <= right.length; j++) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[right.length] ?? 0;
}

/**
 * The known name closest to what the user typed, when it is close enough to be a likely typo (at most a third of
 * its length away, and at least 1); undefined otherwise, so a suggestion is never a wild guess.
 */
export function closestName(typed: string, known: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.floor(typed.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(typed, name);
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** " (did you mean 'x'?)" for a message, or nothing when no known name is close. */
export function didYouMean(typed: string, known: Iterable<string>): string {
  const closest = closestName(typed, known);
  return closest === undefined ? "" : ` (did you mean '${closest}'?)`;
}
