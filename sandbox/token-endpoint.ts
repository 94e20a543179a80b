import type { IncomingMessage, ServerResponse } from "node:http";
import type { ClientRegistry } from "./client-registry.ts";
import { readBody } from "./http-body.ts";
import { reply, replyJson } from "./http-reply.ts";
import type { OAuthError } from "./oauth-error.ts";
import { NO_STORE_HEADERS, oauthError, replyOAuthError } from "./oauth-error.ts";
import type { SandboxConfig } from "./options.ts";
import type { Handler } from "./router.ts";
import type { TokenIssuer } from "./token-issuer.ts";
import {
  hasEmptyParameter,
  hasLongValue,
  hasUnknownParameter,
  lacksParameter,
  parseTokenRequest,
} from "./token-request.ts";
import { GRANTED_SCOPE } from "./token-signer.ts";

export interface TokenEndpointDeps {
  readonly config: SandboxConfig;
  readonly clients: ClientRegistry;
  readonly issuer: TokenIssuer;
  /** The API base URL: the only audience tokens are issued for. */
  readonly baseUrl: string;
}

const HTML_PAGE =
  "<!doctype html><html><head><title>Sign in</title></head><body><h1>Please sign in</h1></body></html>\n";

function withoutTrailingSlash(url: string): string {
  return url.endsWith("/") ? url.slice(0, -1) : url;
}

/** The success body around the token and the not-before-policy, built once since the rest never changes. */
function responseParts(deps: TokenEndpointDeps): {
  beforePolicy: string;
  withPolicy: boolean;
  afterPolicy: string;
} {
  const { faults, expiresIn } = deps.config;
  const parts: string[] = [];
  if (!faults.has("token-missing-expires-in")) {
    parts.push(`"expires_in":${faults.has("token-string-expires-in") ? `"${expiresIn}"` : expiresIn}`);
  }
  const exampleFields = !faults.has("token-no-example-fields");
  if (exampleFields) parts.push(`"refresh_expires_in":0`);
  parts.push(`"token_type":"${faults.has("token-type-mac") ? "mac" : "bearer"}"`);
  return {
    beforePolicy: `",${parts.join(",")}${exampleFields ? ',"not-before-policy":' : ""}`,
    withPolicy: exampleFields,
    afterPolicy: `,"scope":${JSON.stringify(faults.has("token-narrow-scope") ? "openid" : GRANTED_SCOPE)}}`,
  };
}

/** `POST {authUrl}/oauth/token`: the client-credentials grant of RFC 6749 §4.4. */
export function createTokenEndpoint(deps: TokenEndpointDeps): Handler {
  const { config, clients, issuer } = deps;
  const { faults } = config;
  const rules = {
    jsonOnly: faults.has("token-json-only"),
    basicAllowed: !faults.has("token-no-basic-auth"),
    formCredentialsAllowed: !faults.has("token-basic-only"),
    repeatedAccepted: faults.has("token-repeated-params-accepted"),
  };
  const failOnEmpty = faults.has("token-empty-param-5xx");
  const failOnMissing = faults.has("token-5xx-missing-param");
  const failOnLong = faults.has("token-5xx-long-value");
  const failOnBasicUnknown = faults.has("token-basic-5xx-unknown-param");
  const secretCaseInsensitive = faults.has("token-secret-case-insensitive");
  const plainErrors = faults.has("token-error-not-json");
  const acceptWrongSecret = faults.has("token-wrong-secret-accepted");
  const acceptUnknownClient = faults.has("token-unknown-client-accepted");
  // A server that checks the credentials on one way in only: a bypass on the other.
  const unchecked = (basic: boolean) => faults.has(basic ? "token-basic-unchecked" : "token-form-unchecked");
  const anyGrantType = faults.has("token-any-grant-type");
  const successHeaders = faults.has("token-no-cache-headers") ? {} : NO_STORE_HEADERS;
  const { beforePolicy, withPolicy, afterPolicy } = responseParts(deps);
  const audience = withoutTrailingSlash(deps.baseUrl);

  function check(
    clientId: string,
    clientSecret: string,
    grantType: string,
    requested: string | undefined,
    basic: boolean,
  ): OAuthError | undefined {
    let outcome = unchecked(basic) ? "ok" : clients.check(clientId, clientSecret);
    // A secret column with a case-insensitive collation: a secret in another case matches.
    if (outcome === "wrong-secret" && secretCaseInsensitive) {
      const known = clients.credentials().find((client) => client.clientId === clientId);
      if (known !== undefined && known.clientSecret.toLowerCase() === clientSecret.toLowerCase())
        outcome = "ok";
    }
    if (
      (outcome === "unknown-client" && !acceptUnknownClient) ||
      (outcome === "wrong-secret" && !acceptWrongSecret)
    ) {
      return oauthError(401, "invalid_client", "Client authentication failed");
    }
    if (grantType !== "client_credentials" && !anyGrantType) {
      return oauthError(400, "unsupported_grant_type", "Only the client_credentials grant type is supported");
    }
    if (requested !== undefined && withoutTrailingSlash(requested) !== audience) {
      // RFC 8707 §2: a resource the server does not serve is an invalid target.
      return oauthError(400, "invalid_target", `The audience must be this API's base URL, ${audience}`);
    }
    return undefined;
  }

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (faults.has("non-json")) {
      reply(res, 200, "text/html; charset=utf-8", HTML_PAGE);
      return;
    }
    const body = await readBody(req, config.maxBodyBytes);
    if (!body.ok) {
      if (body.reason === "aborted") return;
      const tooLarge: OAuthError = oauthError(413, "invalid_request", "The request body is too large");
      res.setHeader("connection", "close");
      replyOAuthError(res, tooLarge, plainErrors);
      return;
    }
    if (
      (failOnMissing && lacksParameter(body.body, req.headers.authorization)) ||
      (failOnLong && hasLongValue(body.body, req.headers.authorization)) ||
      (failOnBasicUnknown &&
        /^basic /i.test(req.headers.authorization ?? "") &&
        hasUnknownParameter(body.body))
    ) {
      replyJson(res, 500, JSON.stringify({ error: "server_error" }));
      return;
    }
    if (failOnEmpty && hasEmptyParameter(body.body)) {
      replyJson(res, 500, JSON.stringify({ error: "server_error" }));
      return;
    }
    const parsed = parseTokenRequest(req.headers, body.body, rules);
    if (!parsed.ok) {
      replyOAuthError(res, parsed.error, plainErrors);
      return;
    }
    const { clientId, clientSecret, grantType, audience: requested, basic } = parsed.request;
    const failure = check(clientId, clientSecret, grantType, requested, basic);
    if (failure !== undefined) {
      replyOAuthError(
        res,
        basic && failure.status === 401 ? { ...failure, basicChallenge: true } : failure,
        plainErrors,
      );
      return;
    }
    const token = await issuer.issue(clientId);
    // Every token kind is base64url and dots, so it needs no JSON escaping.
    const grant = `{"access_token":"${token}${beforePolicy}${withPolicy ? clients.notBeforePolicy(clientId) : ""}${afterPolicy}`;
    replyJson(res, 200, grant, successHeaders);
  };
}
