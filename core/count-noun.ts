/**
 * "1 use", "3 uses", "1 early expiry", "2 early expiries": a count with its noun in the right number. Every message
 * that counts goes through here, so no log reads "1 cycles".
 */
export function countNoun(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
