import { describe, expect } from "vitest";
import type { FaultName, SandboxOptions } from "../../sandbox/index.ts";
import type { TestSandbox } from "./support.ts";
import { test as it, send } from "./support.ts";

type Start = (options: SandboxOptions) => Promise<TestSandbox>;

/** The metadata a sandbox with `faults` answers at `path`, and that sandbox. */
async function metadataWith(start: Start, faults: FaultName[], path: (authUrl: string) => string) {
  const t = await start({ faults });
  return { got: await send(path(t.sandbox.authUrl)), sandbox: t.sandbox };
}

describe("the sandbox's authorisation server metadata", () => {
  it("names its issuer, token endpoint, JWKS and both client authentication methods", async ({
    testSandbox,
  }) => {
    const { got, sandbox } = await metadataWith(
      testSandbox,
      [],
      (auth) => `${auth}/.well-known/openid-configuration`,
    );
    expect(got.status).toBe(200);
    expect(got.json).toEqual({
      issuer: sandbox.authUrl,
      token_endpoint: sandbox.tokenUrl,
      jwks_uri: sandbox.jwksUrl,
      grant_types_supported: ["client_credentials"],
      response_types_supported: [],
      token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
    });
  });

  it("is also at RFC 8414's path, inserted before the issuer's path", async ({ testSandbox }) => {
    const { got, sandbox } = await metadataWith(testSandbox, [], (auth) => {
      const url = new URL(auth);
      return `${url.origin}/.well-known/oauth-authorization-server${url.pathname}`;
    });
    expect((got.json as { issuer?: string }).issuer).toBe(sandbox.authUrl);
  });

  it.for([
    ["token-no-basic-auth", ["client_secret_post"]],
    ["token-basic-only", ["client_secret_basic"]],
  ] as const)("lists only the methods %s leaves", async ([fault, methods], { testSandbox }) => {
    const { got } = await metadataWith(
      testSandbox,
      [fault],
      (auth) => `${auth}/.well-known/openid-configuration`,
    );
    expect((got.json as Record<string, unknown>).token_endpoint_auth_methods_supported).toEqual(methods);
  });
});
