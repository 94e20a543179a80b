import {
  TOKEN_CHECKS,
  tokenBasicAuth,
  tokenErrorFormat,
  tokenExampleFields,
  tokenFormAuth,
  tokenGrantType,
  tokenIssued,
  tokenNoStore,
  tokenReissue,
  tokenResponseShape,
  tokenScope,
  tokenSigned,
  tokenUnknownClient,
  tokenWrongSecret,
} from "../../../contracts/checks/token-issuance.ts";
import type { CheckDefinition, CheckStatus } from "../../../contracts/index.ts";
import type { FaultName } from "../../../sandbox/index.ts";
import { runCheckOn } from "../../support/contract-checks.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

describe("the token issuance checks", () => {
  it("pass every one against the correct sandbox, each naming what it saw", async ({ sandbox }) => {
    const target = await sandbox();
    const messages: Record<string, string> = {};
    for (const check of TOKEN_CHECKS) {
      const result = await runCheckOn(check, target);
      expect(result.status, `${check.id}: ${result.message}`).toBe("PASS");
      messages[check.id] = result.message;
    }
    expect(Object.keys(messages)).toHaveLength(13);
    expect(messages["token.issued"]).toBe("200 with an access token");
    expect(messages["token.signed"]).toMatch(/^JWS signed with ES256, with a kid$/);
    expect(messages["token.no-store"]).toBe("Cache-Control: no-store, Pragma: no-cache");
    expect(messages["token.wrong-secret-refused"]).toMatch(
      /^refused without a token with form fields \(401 .*\) and with HTTP Basic \(401 .*\)$/,
    );
  });

  const faulted: ReadonlyArray<
    readonly [FaultName, CheckDefinition, CheckStatus, RegExp, { clientAuth?: "basic" }?]
  > = [
    [
      "token-json-only",
      tokenIssued,
      "FAIL",
      /^expected a success response carrying access_token, received 4\d\d /,
    ],
    [
      "token-missing-expires-in",
      tokenResponseShape,
      "FAIL",
      /^expected the token response the spec's rules require, but expires_in \(the lifetime in seconds\) is absent$/,
    ],
    [
      "token-string-expires-in",
      tokenResponseShape,
      "FAIL",
      /^expected the token response the spec's rules require, but expires_in is a string \("300"\), not a number of seconds$/,
    ],
    [
      "token-type-mac",
      tokenResponseShape,
      "FAIL",
      /^expected the token response the spec's rules require, but token_type is "mac", not Bearer \(any case\)$/,
    ],
    [
      "token-no-example-fields",
      tokenExampleFields,
      "WARN",
      /^refresh_expires_in and not-before-policy, fields of the spec's example response \(Keycloak\), are absent$/,
    ],
    ["token-narrow-scope", tokenScope, "WARN", /^expected scopes profile, email, ".*" lacks /],
    ["token-opaque", tokenSigned, "FAIL", /received an opaque string$/],
    ["token-unsigned", tokenSigned, "FAIL", /^expected a signature, received alg "none" with no signature$/],
    ["token-reissue-broken", tokenReissue, "FAIL", /^expected the repeated call's token to be accepted/],
    ["token-wrong-secret-accepted", tokenWrongSecret, "FAIL", /a wrong secret got an access token/],
    ["token-unknown-client-accepted", tokenUnknownClient, "FAIL", /an unknown client got an access token/],
    ["token-any-grant-type", tokenGrantType, "FAIL", /^expected no access token, received one/],
    ["token-error-not-json", tokenErrorFormat, "WARN", /expected a JSON body with an RFC 6749 "error" code/],
    [
      "token-no-cache-headers",
      tokenNoStore,
      "WARN",
      /^expected Cache-Control: no-store \(absent\) and Pragma: no-cache \(absent\)$/,
    ],
    [
      "token-no-basic-auth",
      tokenBasicAuth,
      "WARN",
      /^expected an access token, received a refusal: 401 .*; works with --client-auth post$/,
    ],
    [
      "token-basic-only",
      tokenFormAuth,
      "WARN",
      /received a refusal: .*; works with --client-auth basic$/,
      { clientAuth: "basic" },
    ],
    [
      "token-no-basic-auth",
      tokenWrongSecret,
      "PASS",
      /^refused without a token with form fields \(401 .*\); HTTP Basic: valid credentials got no token either, no bypass to look for$/,
    ],
    [
      "token-basic-unchecked",
      tokenWrongSecret,
      "FAIL",
      /^with HTTP Basic \(which the server accepts\), a wrong/,
    ],
  ];

  it.for(
    faulted.map(
      ([fault, check, status, message, target]) => [fault, check.id, status, check, message, target] as const,
    ),
  )("%s: %s is %s", async ([fault, , status, check, message, target], { sandbox }) => {
    const result = await runCheckOn(check, await sandbox([fault]), target ?? {});
    expect(result.status, result.message).toBe(status);
    expect(result.message).toMatch(message);
  });

  it("SKIPs the refusal checks when the given credentials get no token: a refusal then proves nothing", async ({
    sandbox,
  }) => {
    const target = await sandbox();
    for (const check of [tokenWrongSecret, tokenUnknownClient, tokenGrantType, tokenErrorFormat]) {
      const result = await runCheckOn(check, target, { clientId: "eah-not-registered" });
      expect(result.status, check.id).toBe("SKIP");
      expect(result.message).toMatch(/^premise failed: the given credentials got no token \(401 /);
    }
  });

  it("suggests --scope with the spec's scopes only when the server granted just what was asked", async ({
    sandbox,
  }) => {
    const narrow = await sandbox(["token-narrow-scope"]);
    const unasked = await runCheckOn(tokenScope, narrow);
    expect(unasked.status).toBe("WARN");
    expect(unasked.message).toBe('expected scopes profile, email, "openid" lacks profile, email');
    const asked = await runCheckOn(tokenScope, narrow, { scope: "openid" });
    expect(asked.status).toBe("WARN");
    expect(asked.message).toBe(
      'expected scopes profile, email, "openid" lacks profile, email; the server granted only what was asked for (--scope "openid"): ask for them with --scope "openid profile email"',
    );
  });

  it("never writes the client secret into a message or the evidence", async ({ sandbox }) => {
    const target = await sandbox(["token-wrong-secret-accepted"]);
    const secret = target.clients[0]?.clientSecret as string;
    const result = await runCheckOn(tokenWrongSecret, target);
    expect(JSON.stringify(result)).not.toContain(secret);
  });
});
