import { decodeJwt } from "jose";
import type { ClientRegistry } from "./client-registry.ts";
import type { Clock } from "./clock.ts";
import type { FaultName } from "./faults.ts";
import { PROBLEM_DESCRIPTIONS, type TokenSigner } from "./token-signer.ts";
import type { TokenStore } from "./token-store.ts";

export type BearerResult =
  | { readonly ok: true; readonly clientId: string }
  | { readonly ok: false; readonly missing: true }
  | { readonly ok: false; readonly missing: false; readonly description: string };

const MISSING: BearerResult = { ok: false, missing: true };

function invalid(description: string): BearerResult {
  return { ok: false, missing: false, description };
}

const NOT_BEARER = invalid("The Authorization header must carry a Bearer token");
const EXPIRED = invalid(PROBLEM_DESCRIPTIONS.expired);
const REFUSED = invalid(PROBLEM_DESCRIPTIONS.refused);
const REVOKED = invalid(PROBLEM_DESCRIPTIONS.revoked);

/** RFC 6750 §2.1: `Bearer` (any case), one or more spaces, then the b64token. */
const BEARER_HEADER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

export interface BearerAuthDeps {
  readonly faults: ReadonlySet<FaultName>;
  readonly tokens: TokenStore;
  readonly signer: TokenSigner;
  readonly clients: ClientRegistry;
  readonly clock: Clock;
}

/**
 * Decides who an API request comes from. A token string the store holds is genuine (the sandbox issued exactly those
 * bytes), so the hot path is one map lookup; only unknown strings pay for a full jose verification.
 */
export class BearerAuthenticator {
  readonly #tokens: TokenStore;
  readonly #signer: TokenSigner;
  readonly #clock: Clock;
  readonly #defaultClientId: string;
  readonly #notRequired: boolean;
  readonly #anyToken: boolean;
  readonly #anyScheme: boolean;
  readonly #algNone: boolean;
  readonly #signatureUnchecked: boolean;

  constructor(deps: BearerAuthDeps) {
    this.#tokens = deps.tokens;
    this.#signer = deps.signer;
    this.#clock = deps.clock;
    this.#defaultClientId = deps.clients.defaultClientId;
    this.#notRequired = deps.faults.has("bearer-not-required");
    this.#anyToken = deps.faults.has("bearer-any-token");
    this.#anyScheme = deps.faults.has("bearer-any-scheme");
    this.#algNone = deps.faults.has("bearer-alg-none");
    this.#signatureUnchecked = deps.faults.has("bearer-signature-unchecked");
  }

  /** Synchronous for tokens the store knows; a Promise only when full verification is needed. */
  authenticate(header: string | undefined): BearerResult | Promise<BearerResult> {
    if (header === undefined || header.length === 0) {
      return this.#notRequired ? { ok: true, clientId: this.#defaultClientId } : MISSING;
    }
    // The exact form every client sends needs no regex.
    if (header.startsWith("Bearer ")) {
      const known = this.#lookUp(header.slice(7));
      if (known !== undefined) return known;
    }
    const token = this.#credentials(header);
    if (token === undefined) return NOT_BEARER;
    return this.#lookUp(token) ?? this.#verifyUnknown(token);
  }

  /** The answer for a token the store holds; undefined for a string it does not know. */
  #lookUp(token: string): BearerResult | undefined {
    const found = this.#tokens.use(token);
    switch (found.status) {
      case "valid":
        return { ok: true, clientId: found.record.clientId };
      case "expired":
        return EXPIRED;
      case "refused":
        return REFUSED;
      case "revoked":
        return REVOKED;
      case "unknown":
        return undefined;
    }
  }

  /** The client a request claims to come from, without trusting it (for `bearer-rejected-stored`). */
  claimedClientId(header: string | undefined): string {
    const token = header === undefined ? undefined : this.#credentials(header);
    if (token !== undefined) {
      try {
        const { sub } = decodeJwt(token);
        if (typeof sub === "string" && sub.length > 0) return sub;
      } catch {
        // Not a JWT: fall back to the default client.
      }
    }
    return this.#defaultClientId;
  }

  #credentials(header: string): string | undefined {
    if (this.#anyScheme) {
      const parts = header.trim().split(/ +/);
      return parts[parts.length - 1];
    }
    return BEARER_HEADER.exec(header)?.[1];
  }

  async #verifyUnknown(token: string): Promise<BearerResult> {
    const now = this.#clock.now();
    const outcome = await this.#signer.verify(token, now);
    // A genuine token the store no longer holds was swept after it expired.
    if (outcome.valid) return EXPIRED;
    if (this.#anyToken) return { ok: true, clientId: this.claimedClientId(`Bearer ${token}`) };
    const skipsCheck =
      (this.#algNone && outcome.problem === "unsigned") ||
      (this.#signatureUnchecked && (outcome.problem === "signature" || outcome.problem === "algorithm"));
    if (skipsCheck) {
      const payload = this.#signer.claimsLookRight(token, now);
      if (typeof payload?.sub === "string") return { ok: true, clientId: payload.sub };
    }
    return invalid(PROBLEM_DESCRIPTIONS[outcome.problem]);
  }
}
