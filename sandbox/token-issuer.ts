import { randomBytes } from "node:crypto";
import type { ClientRegistry } from "./client-registry.ts";
import type { SandboxConfig } from "./options.ts";
import type { TokenSigner } from "./token-signer.ts";
import type { TokenStore } from "./token-store.ts";

/** Makes access tokens (whatever kind the faults ask for) and registers them in the token store. */
export class TokenIssuer {
  readonly #config: SandboxConfig;
  readonly #signer: TokenSigner;
  readonly #tokens: TokenStore;
  readonly #clients: ClientRegistry;
  /** Tokens issued per registered client, for `token-reissue-broken`. */
  readonly #issuedCount = new Map<string, number>();

  constructor(deps: {
    readonly config: SandboxConfig;
    readonly signer: TokenSigner;
    readonly tokens: TokenStore;
    readonly clients: ClientRegistry;
  }) {
    this.#config = deps.config;
    this.#signer = deps.signer;
    this.#tokens = deps.tokens;
    this.#clients = deps.clients;
  }

  async issue(clientId: string): Promise<string> {
    const { clock, faults, maxTokenAgeSeconds } = this.#config;
    const now = clock.now();
    const iat = Math.floor(now / 1000);
    const claims = { clientId, issuedAt: iat * 1000, expiresAt: (iat + maxTokenAgeSeconds) * 1000 };
    let token: string;
    if (faults.has("token-opaque")) token = randomBytes(32).toString("base64url");
    else if (faults.has("token-unsigned")) token = this.#signer.signUnsecured(claims);
    else token = await this.#signer.sign(claims);
    const registered = this.#clients.has(clientId);
    const previous = registered ? (this.#issuedCount.get(clientId) ?? 0) : 0;
    if (registered) this.#issuedCount.set(clientId, previous + 1);
    this.#tokens.add(token, {
      clientId,
      issuedAt: now,
      lastUse: now,
      hardExpiresAt: claims.expiresAt,
      refused:
        (faults.has("token-reissue-broken") && previous > 0) ||
        (faults.has("expiry-no-renewal") && this.#tokens.sawExpiry(clientId)),
      revoked: false,
    });
    return token;
  }
}
