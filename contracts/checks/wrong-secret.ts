import { randomBytes } from "node:crypto";

/** Every `length`-character run of `text`. */
function runsOf(text: string, length: number): Set<string> {
  const runs = new Set<string>();
  for (let at = 0; at + length <= text.length; at += 1) runs.add(text.slice(at, at + length));
  return runs;
}

/**
 * The shortest run two random strings of `length` characters (64 symbols) share by chance less than once in ten
 * draws, and at least 3: a wrong secret may share shorter runs with the real one without telling anything.
 */
function sharedRunFor(length: number): number {
  return Math.max(3, Math.ceil(Math.log(10 * length * length) / Math.log(64)));
}

/**
 * A client secret that is certainly wrong and tells nothing of the real one: random, as long as the real one (so a
 * server that compares lengths first still compares), never equal to it, and sharing no run of characters with it
 * longer than chance gives. Evidence may show it as it is, where the real secret plus a suffix would leave the real
 * one in every encoding of the probe (HTTP Basic's base64 above all).
 */
export function wrongSecret(real: string): string {
  const length = Math.max(real.length, 1);
  // Each draw fails with a chance under 1 in 10; a longer allowed run after each failure ends the loop for sure.
  for (let shared = sharedRunFor(length); ; shared += 1) {
    const candidate = randomBytes(length).toString("base64url").slice(0, length);
    if (candidate === real) continue;
    const realRuns = runsOf(real, Math.min(shared, length));
    if (![...runsOf(candidate, Math.min(shared, length))].some((run) => realRuns.has(run))) return candidate;
  }
}
