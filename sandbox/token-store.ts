import type { Clock } from "./clock.ts";

/**
 * How idle time ends a token. `sliding` is the spec (Authentication rules 5–7); the others exist for the expiry faults.
 */
export type ExpiryPolicy = "sliding" | "fixed" | "never" | "early";

export interface TokenRecord {
  readonly clientId: string;
  /** Epoch ms of issue. */
  readonly issuedAt: number;
  /** Epoch ms of the last successful use; starts at issue. */
  lastUse: number;
  /** Epoch ms of the JWT `exp`: no use extends a token past it. */
  readonly hardExpiresAt: number;
  /** The API refuses this token although it was issued (the `token-reissue-broken` fault). */
  readonly refused: boolean;
  /** The client's tokens were revoked after this one was issued (secret rotation). */
  revoked: boolean;
}

export type TokenLookup =
  | { readonly status: "valid"; readonly record: TokenRecord }
  | { readonly status: "expired" | "refused" | "revoked" | "unknown" };

const EXPIRED: TokenLookup = { status: "expired" };
const REFUSED: TokenLookup = { status: "refused" };
const REVOKED: TokenLookup = { status: "revoked" };
const UNKNOWN: TokenLookup = { status: "unknown" };

/** The lazy sweep runs at most this often (clock time), so a busy API pays for it almost never. */
const SWEEP_INTERVAL_MS = 1_000;
/** Each sweep looks at this share of the tokens (at least MIN_SWEEP_BATCH), so each token is seen every ~8 s. */
const SWEEP_FRACTION = 8;
const MIN_SWEEP_BATCH = 1_024;

export interface TokenStoreOptions {
  readonly clock: Clock;
  /** expires_in, in seconds. */
  readonly expiresIn: number;
  readonly policy: ExpiryPolicy;
  /** Tokens kept at most; past it the oldest is dropped, so no policy grows memory forever. */
  readonly maxTokens: number;
}

/**
 * The tokens this sandbox issued, keyed by their exact string: a string found here is known to be genuine, so the
 * hot path is one Map lookup and no signature check. Expired tokens are dropped lazily as the clock moves, by an
 * incremental sweep over a queue of the tokens; the Map is never iterated, because V8 makes a fresh Map iterator
 * skip every hole earlier deletes left (tens of µs per call on a busy map).
 */
export class TokenStore {
  readonly #tokens = new Map<string, TokenRecord>();
  /** Every held token once, from #head on; the sweep takes from the front and puts live tokens back at the end. */
  #queue: string[] = [];
  #head = 0;
  readonly #clock: Clock;
  readonly #idleLimitMs: number;
  readonly #policy: ExpiryPolicy;
  readonly #maxTokens: number;
  #nextSweepAt = Number.NEGATIVE_INFINITY;
  /** Clients one of whose tokens has expired (found on use or by the sweep), for the `expiry-no-renewal` fault. */
  readonly #expiredClients = new Set<string>();

  constructor(options: TokenStoreOptions) {
    this.#clock = options.clock;
    this.#policy = options.policy;
    this.#maxTokens = options.maxTokens;
    const lifetimeMs = options.expiresIn * 1000;
    this.#idleLimitMs = options.policy === "early" ? lifetimeMs / 2 : lifetimeMs;
  }

  /** Tokens held (expired ones not yet swept included). */
  get size(): number {
    return this.#tokens.size;
  }

  add(token: string, record: TokenRecord): void {
    this.#maybeSweep(this.#clock.now());
    while (this.#tokens.size >= this.#maxTokens) {
      const oldest = this.#take();
      if (oldest === undefined) break;
      this.#tokens.delete(oldest);
    }
    this.#tokens.set(token, record);
    this.#queue.push(token);
  }

  /** Looks a token up and, when it is valid, counts this as its last use (spec rule 6). */
  use(token: string): TokenLookup {
    const now = this.#clock.now();
    const lookup = this.#lookUp(token, now);
    // After the lookup, so a token the sweep would drop is still reported as expired rather than unknown.
    this.#maybeSweep(now);
    return lookup;
  }

  #lookUp(token: string, now: number): TokenLookup {
    const record = this.#tokens.get(token);
    if (record === undefined) return UNKNOWN;
    if (this.#isExpired(record, now)) {
      this.#tokens.delete(token);
      this.#expiredClients.add(record.clientId);
      return EXPIRED;
    }
    if (record.refused) return REFUSED;
    if (record.revoked) return REVOKED;
    record.lastUse = now;
    return { status: "valid", record };
  }

  /** Whether a token of this client has expired. */
  sawExpiry(clientId: string): boolean {
    return this.#expiredClients.has(clientId);
  }

  /** Marks every token of the client as revoked (secret rotation); returns how many there were. */
  revokeClient(clientId: string): number {
    let revoked = 0;
    // A rare administrative call: one pass over the map is fine here, unlike on the request path.
    for (const record of this.#tokens.values()) {
      if (record.clientId !== clientId) continue;
      record.revoked = true;
      revoked += 1;
    }
    return revoked;
  }

  /**
   * Looks at the next batch of tokens (all of them when there are at most MIN_SWEEP_BATCH) and drops the expired
   * ones; returns how many were dropped.
   */
  sweep(now: number = this.#clock.now()): number {
    this.#nextSweepAt = now + SWEEP_INTERVAL_MS;
    const queued = this.#queue.length - this.#head;
    let budget = Math.min(queued, Math.max(MIN_SWEEP_BATCH, Math.ceil(queued / SWEEP_FRACTION)));
    let dropped = 0;
    for (; budget > 0; budget -= 1) {
      const token = this.#take();
      if (token === undefined) break;
      const record = this.#tokens.get(token);
      if (record === undefined) continue;
      if (this.#isExpired(record, now)) {
        this.#tokens.delete(token);
        this.#expiredClients.add(record.clientId);
        dropped += 1;
      } else {
        this.#queue.push(token);
      }
    }
    return dropped;
  }

  /** The oldest queued token that is still held, removed from the queue. */
  #take(): string | undefined {
    while (this.#head < this.#queue.length) {
      const token = this.#queue[this.#head] as string;
      this.#head += 1;
      if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
        // Drop the consumed front once it is most of the array: amortised O(1) per token.
        this.#queue = this.#queue.slice(this.#head);
        this.#head = 0;
      }
      if (this.#tokens.has(token)) return token;
    }
    return undefined;
  }

  #maybeSweep(now: number): void {
    if (now >= this.#nextSweepAt) this.sweep(now);
  }

  #isExpired(record: TokenRecord, now: number): boolean {
    if (now >= record.hardExpiresAt) return true;
    switch (this.#policy) {
      case "sliding":
      case "early":
        return now - record.lastUse >= this.#idleLimitMs;
      case "fixed":
        return now - record.issuedAt >= this.#idleLimitMs;
      case "never":
        return false;
    }
  }
}
