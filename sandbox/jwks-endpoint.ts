import { replyJson } from "./http-reply.ts";
import type { Handler } from "./router.ts";
import type { TokenSigner } from "./token-signer.ts";

/** `GET {authUrl}/.well-known/jwks.json`: the public key set, so clients can verify access tokens themselves. */
export function createJwksEndpoint(signer: TokenSigner): Handler {
  const body = JSON.stringify(signer.jwks);
  return (_req, res) => {
    replyJson(res, 200, body, { "cache-control": "public, max-age=300" });
  };
}
