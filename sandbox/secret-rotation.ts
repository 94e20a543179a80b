import type { ClientRegistry } from "./client-registry.ts";
import type { Clock } from "./clock.ts";
import type { TokenStore } from "./token-store.ts";

export interface RotationRequest {
  /** Seconds of clock time the old secret stays accepted; 0 refuses it at once. */
  readonly overlapSeconds: number;
  /** Refuses every token issued before the rotation and moves the not-before-policy forward. */
  readonly revokeTokens: boolean;
}

export interface RotationOutcome {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Unix seconds, as the token endpoint reports it after the rotation. */
  readonly notBeforePolicy: number;
  /** Epoch ms until which the old secret is still accepted; undefined when it was refused at once. */
  readonly oldSecretValidUntil: number | undefined;
}

/** Rotates one client's secret: shared by the sandbox handle and the admin endpoint, so both behave alike. */
export function rotateClientSecret(
  deps: { readonly clients: ClientRegistry; readonly tokens: TokenStore; readonly clock: Clock },
  clientId: string,
  request: RotationRequest,
): RotationOutcome {
  const { overlapSeconds, revokeTokens } = request;
  if (!Number.isFinite(overlapSeconds) || overlapSeconds < 0) {
    throw new RangeError(`overlapSeconds must be a number of seconds ≥ 0, got ${overlapSeconds}`);
  }
  const rotatedAt = deps.clock.now();
  const rotated = deps.clients.rotate(clientId, overlapSeconds);
  if (revokeTokens) {
    deps.clients.revokeTokens(clientId);
    deps.tokens.revokeClient(clientId);
  }
  return {
    clientId: rotated.clientId,
    clientSecret: rotated.clientSecret,
    notBeforePolicy: deps.clients.notBeforePolicy(clientId),
    oldSecretValidUntil: overlapSeconds > 0 ? rotatedAt + overlapSeconds * 1000 : undefined,
  };
}
