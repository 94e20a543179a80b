/** Evidence shows fewer than this many characters in a row of a token: a prefix to recognise it, nothing to replay. */
export const TOKEN_RUN = 8;
/** Every 4th position of a token is indexed, by the 5 characters there: any run of 8 holds one of them whole. */
const STRIDE = 4;
const KEY = TOKEN_RUN - STRIDE + 1;
/** Around an indexed key, the characters a run of 8 through it can cover: an entry with the same ones adds nothing. */
const BEFORE = STRIDE - 1;
const AFTER = TOKEN_RUN;
/** The polynomial hash's base and its power KEY - 1, so the hash of the next key comes from the last one. */
const BASE = 0x01000193;
const TOP = Array.from({ length: KEY - 1 }).reduce<number>((power) => Math.imul(power, BASE), 1);

/** A run of a token found in a text: [start, end) of the text, and the placeholder of the token it belongs to. */
export interface TokenRun {
  readonly start: number;
  readonly end: number;
  readonly placeholder: string;
}

/** The polynomial hash of the KEY characters at `at` (mod 2^32). */
function keyHash(text: string, at: number): number {
  let hash = 0;
  for (let k = 0; k < KEY; k += 1) hash = (Math.imul(hash, BASE) + text.charCodeAt(at + k)) | 0;
  return hash;
}

/** The hash mixed, so the slots spread whatever the alphabet. */
function mixed(hash: number): number {
  let mix = Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d);
  mix = Math.imul(mix ^ (mix >>> 12), 0x297a2d39);
  return (mix ^ (mix >>> 15)) >>> 0;
}

/**
 * Every token a run saw, indexed so that any TOKEN_RUN characters of one in a row are found in a text in time
 * linear in the text, whatever the number and length of the tokens. A token costs about 4 bytes a character:
 * the token itself, and for every 4th position a 4-byte slot and a 1-byte tag (at most half the table full), so
 * adding one is linear in its length and nothing is rebuilt. Positions whose surroundings an earlier token already
 * has (a JWT's common header, the same token twice) are not indexed again.
 */
export class TokenIndex {
  readonly #tokens: string[] = [];
  /** Where each token starts in the positions all tokens share, one after another. */
  readonly #starts: number[] = [];
  readonly #placeholders: string[] = [];
  readonly #ids = new Map<string, number>();
  /** Open addressing: a global position + 1 per slot, 0 when empty. */
  #slots = new Uint32Array(1 << 10);
  /** 8 bits of each slot's key hash, so a slot of another key is passed over without reading its token. */
  #tags = new Uint8Array(1 << 10);
  #used = 0;
  #chars = 0;

  /** The characters of every distinct token indexed so far. */
  get chars(): number {
    return this.#chars;
  }

  /** Whether `token` is indexed already (it costs nothing more). */
  has(token: string): boolean {
    return this.#ids.has(token);
  }

  /** Indexes `token` (longer than TOKEN_RUN) under `placeholder`; the same token again only takes the new one. */
  add(token: string, placeholder: string): void {
    const known = this.#ids.get(token);
    if (known !== undefined) {
      this.#placeholders[known] = placeholder;
      return;
    }
    const id = this.#tokens.length;
    const start = this.#chars;
    this.#tokens.push(token);
    this.#starts.push(start);
    this.#placeholders.push(placeholder);
    this.#ids.set(token, id);
    this.#chars += token.length;
    // A run of TOKEN_RUN at s holds the key at the multiple of STRIDE in [s, s + STRIDE), which ends by s + TOKEN_RUN.
    for (let at = 0; at + KEY <= token.length; at += STRIDE) {
      const hash = mixed(keyHash(token, at));
      if (!this.#covered(token, at, hash)) this.#insert(start + at + 1, hash);
    }
  }

  /**
   * Stretches of `text` that match TOKEN_RUN or more characters in a row of a token, each with that token's
   * placeholder; together they cover exactly the characters that lie in such a run. Stretches may overlap.
   */
  find(text: string): TokenRun[] {
    const runs: TokenRun[] = [];
    if (this.#tokens.length === 0 || text.length < TOKEN_RUN) return runs;
    const slots = this.#slots;
    const tags = this.#tags;
    const mask = slots.length - 1;
    // A stretch of text known to be covered: a key whose every run of TOKEN_RUN lies inside it adds nothing.
    let coveredFrom = 0;
    let coveredTo = 0;
    let hash = keyHash(text, 0);
    for (let at = 0; at + KEY <= text.length; at += 1) {
      if (at > 0) {
        // The next key's hash from this one's: the first character out, the next one in.
        const out = Math.imul(text.charCodeAt(at - 1), TOP);
        hash = (Math.imul((hash - out) | 0, BASE) + text.charCodeAt(at + KEY - 1)) | 0;
      }
      if (at - BEFORE >= coveredFrom && at + TOKEN_RUN <= coveredTo) continue;
      const key = mixed(hash);
      const tag = key >>> 24;
      // Every run found here holds [at, at + KEY): together they cover one stretch.
      let from = at;
      let to = at;
      for (let slot = key & mask; ; slot = (slot + 1) & mask) {
        const entry = slots[slot] ?? 0;
        if (entry === 0) break;
        if (tags[slot] !== tag) continue;
        const run = this.#match(text, at, entry - 1);
        if (run === undefined) continue;
        if (run.start < coveredFrom || run.end > coveredTo) runs.push(run);
        from = Math.min(from, run.start);
        to = Math.max(to, run.end);
      }
      if (to === at) continue;
      if (from <= coveredTo && to >= coveredFrom) {
        coveredFrom = Math.min(coveredFrom, from);
        coveredTo = Math.max(coveredTo, to);
      } else {
        coveredFrom = from;
        coveredTo = to;
      }
    }
    return runs;
  }

  /** The run of `text` through [at, at + KEY) that matches the token text at global position `position`. */
  #match(text: string, at: number, position: number): TokenRun | undefined {
    const id = this.#tokenAt(position);
    const token = this.#tokens[id] as string;
    const from = position - (this.#starts[id] as number);
    for (let k = 0; k < KEY; k += 1)
      if (text.charCodeAt(at + k) !== token.charCodeAt(from + k)) return undefined;
    let before = 0;
    while (
      before < from &&
      before < at &&
      text.charCodeAt(at - before - 1) === token.charCodeAt(from - before - 1)
    )
      before += 1;
    let after = KEY;
    while (
      from + after < token.length &&
      at + after < text.length &&
      text.charCodeAt(at + after) === token.charCodeAt(from + after)
    )
      after += 1;
    if (before + after < TOKEN_RUN) return undefined;
    return { start: at - before, end: at + after, placeholder: this.#placeholders[id] as string };
  }

  /** Which token a global position lies in: the last whose start is at or before it. */
  #tokenAt(position: number): number {
    let low = 0;
    let high = this.#starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if ((this.#starts[middle] as number) <= position) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  /** Whether an indexed position has the same key with the same surroundings as `token` at `at`. */
  #covered(token: string, at: number, hash: number): boolean {
    const before = Math.min(BEFORE, at);
    const after = Math.min(AFTER, token.length - at);
    const mask = this.#slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.#slots[slot] ?? 0;
      if (entry === 0) return false;
      if (this.#tags[slot] !== hash >>> 24) continue;
      const id = this.#tokenAt(entry - 1);
      const other = this.#tokens[id] as string;
      const from = entry - 1 - (this.#starts[id] as number);
      if (Math.min(BEFORE, from) !== before || Math.min(AFTER, other.length - from) !== after) continue;
      let same = true;
      for (let k = -before; k < after && same; k += 1)
        same = token.charCodeAt(at + k) === other.charCodeAt(from + k);
      if (same) return true;
    }
  }

  #insert(entry: number, hash: number): void {
    if (2 * (this.#used + 1) > this.#slots.length) this.#grow();
    this.#place(entry, hash);
    this.#used += 1;
  }

  #place(entry: number, hash: number): void {
    const mask = this.#slots.length - 1;
    let slot = hash & mask;
    while ((this.#slots[slot] ?? 0) !== 0) slot = (slot + 1) & mask;
    this.#slots[slot] = entry;
    this.#tags[slot] = hash >>> 24;
  }

  #grow(): void {
    const old = this.#slots;
    this.#slots = new Uint32Array(old.length * 2);
    this.#tags = new Uint8Array(old.length * 2);
    for (const entry of old) {
      if (entry === 0) continue;
      const id = this.#tokenAt(entry - 1);
      this.#place(
        entry,
        mixed(keyHash(this.#tokens[id] as string, entry - 1 - (this.#starts[id] as number))),
      );
    }
  }
}
