import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Clock } from "./clock.ts";
import type { ClientCredentials } from "./options.ts";

export type ClientCheck = "ok" | "unknown-client" | "wrong-secret";

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

interface ClientState {
  secret: string;
  digest: Buffer;
  /** The secret before the last rotation, accepted until `previousUntil` (epoch ms). */
  previous: Buffer | undefined;
  previousUntil: number;
  /** Keycloak's not-before-policy: Unix seconds; tokens issued earlier were revoked. */
  notBefore: number;
}

/** The registered clients; secrets are compared in constant time, as digests of equal length. */
export class ClientRegistry {
  readonly #clients = new Map<string, ClientState>();
  readonly #clock: Clock;
  readonly #startedAt: number;
  readonly #unknownSecret = digest("unknown client: compare against something anyway");
  /** The client that requests without a usable identity are attributed to (the first one registered). */
  readonly defaultClientId: string;

  constructor(clients: readonly ClientCredentials[], clock: Clock) {
    this.#clock = clock;
    this.#startedAt = Math.floor(clock.now() / 1000);
    for (const { clientId, clientSecret } of clients) {
      this.#clients.set(clientId, {
        secret: clientSecret,
        digest: digest(clientSecret),
        previous: undefined,
        previousUntil: 0,
        notBefore: this.#startedAt,
      });
    }
    const first = clients[0];
    if (first === undefined) throw new RangeError("at least one client is required");
    this.defaultClientId = first.clientId;
  }

  has(clientId: string): boolean {
    return this.#clients.has(clientId);
  }

  /** The current credentials of every client, in registration order. */
  credentials(): readonly ClientCredentials[] {
    return [...this.#clients].map(([clientId, state]) => ({ clientId, clientSecret: state.secret }));
  }

  check(clientId: string, clientSecret: string): ClientCheck {
    const state = this.#clients.get(clientId);
    const given = digest(clientSecret);
    // Compare even for an unknown client so the answer time does not reveal which client ids exist.
    const matches = timingSafeEqual(state?.digest ?? this.#unknownSecret, given);
    if (state === undefined) return "unknown-client";
    if (matches) return "ok";
    const overlapping = state.previous !== undefined && this.#clock.now() < state.previousUntil;
    return overlapping && state.previous !== undefined && timingSafeEqual(state.previous, given)
      ? "ok"
      : "wrong-secret";
  }

  /** Gives a client a new random secret; the old one stays accepted for `overlapSeconds` (clock time). */
  rotate(clientId: string, overlapSeconds: number): ClientCredentials {
    const state = this.#require(clientId);
    const clientSecret = randomBytes(24).toString("base64url");
    state.previous = overlapSeconds > 0 ? state.digest : undefined;
    state.previousUntil = this.#clock.now() + overlapSeconds * 1000;
    state.secret = clientSecret;
    state.digest = digest(clientSecret);
    return { clientId, clientSecret };
  }

  /** Moves the client's not-before-policy to now, as Keycloak's "revoke" does. */
  revokeTokens(clientId: string): void {
    this.#require(clientId).notBefore = Math.floor(this.#clock.now() / 1000);
  }

  /** Unix seconds reported as not-before-policy; the start time for a client the sandbox does not know. */
  notBeforePolicy(clientId: string): number {
    return this.#clients.get(clientId)?.notBefore ?? this.#startedAt;
  }

  #require(clientId: string): ClientState {
    const state = this.#clients.get(clientId);
    if (state === undefined) throw new RangeError(`unknown client ${clientId}`);
    return state;
  }
}
