import { afterEach, describe, expect, it } from "vitest";
import type { FaultName } from "../../sandbox/index.ts";
import type { TestSandbox } from "./support.ts";
import { send, startTestSandbox } from "./support.ts";

let t: TestSandbox | undefined;
afterEach(async () => {
  await t?.sandbox.close();
  t = undefined;
});

async function metadataWith(faults: FaultName[], path: (authUrl: string) => string) {
  t = await startTestSandbox({ faults });
  return send(path(t.sandbox.authUrl));
}

describe("the sandbox's authorisation server metadata", () => {
  it("names its issuer, token endpoint, JWKS and both client authentication methods", async () => {
    const got = await metadataWith([], (auth) => `${auth}/.well-known/openid-configuration`);
    expect(got.status).toBe(200);
    const sandbox = (t as TestSandbox).sandbox;
    expect(got.json).toEqual({
      issuer: sandbox.authUrl,
      token_endpoint: sandbox.tokenUrl,
      jwks_uri: sandbox.jwksUrl,
      grant_types_supported: ["client_credentials"],
      response_types_supported: [],
      token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
    });
  });

  it("is also at RFC 8414's path, inserted before the issuer's path", async () => {
    const got = await metadataWith([], (auth) => {
      const url = new URL(auth);
      return `${url.origin}/.well-known/oauth-authorization-server${url.pathname}`;
    });
    expect((got.json as { issuer?: string }).issuer).toBe((t as TestSandbox).sandbox.authUrl);
  });

  it.each([
    ["token-no-basic-auth", ["client_secret_post"]],
    ["token-basic-only", ["client_secret_basic"]],
  ] as const)("lists only the methods %s leaves", async (fault, methods) => {
    const got = await metadataWith([fault], (auth) => `${auth}/.well-known/openid-configuration`);
    expect((got.json as Record<string, unknown>).token_endpoint_auth_methods_supported).toEqual(methods);
  });
});
