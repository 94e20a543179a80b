import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { introspectionOf, resolveTargetWithIssuer } from "../../cli/issuer-target.ts";
import { CannotRunError, UsageError } from "../../core/index.ts";
import type { FaultName, RunningSandbox } from "../../sandbox/index.ts";
import { startSandbox } from "../../sandbox/index.ts";

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function resolveAgainst(
  faults: FaultName[],
  extra: Record<string, string> = {},
  env: NodeJS.ProcessEnv = {},
) {
  sandbox = await startSandbox({ port: 0, faults });
  const stderr = new PassThrough();
  let said = "";
  stderr.setEncoding("utf8").on("data", (chunk: string) => {
    said += chunk;
  });
  const target = await resolveTargetWithIssuer(
    {
      issuer: sandbox.authUrl,
      "base-url": sandbox.baseUrl,
      "client-id": "sandbox-demo",
      "client-secret": "sandbox-demo-secret",
      ...extra,
    },
    env,
    { signal: new AbortController().signal, stderr },
  );
  return { target, said };
}

describe("--issuer", () => {
  it("takes the token endpoint and the spec's form credentials from the metadata", async () => {
    const { target, said } = await resolveAgainst([]);
    expect(target?.tokenUrl).toBe(sandbox?.tokenUrl);
    expect(target?.clientAuth).toBe("post");
    expect(said).toContain(`token endpoint ${sandbox?.tokenUrl}, client authentication client_secret_post`);
  });

  it("picks HTTP Basic when that is the only method the metadata lists", async () => {
    const { target } = await resolveAgainst(["token-basic-only"]);
    expect(target?.clientAuth).toBe("basic");
  });

  it("keeps a --client-auth the metadata does not list, and says so naming the one it lists", async () => {
    const { target, said } = await resolveAgainst(["token-basic-only"], { "client-auth": "post" });
    expect(target?.clientAuth).toBe("post");
    expect(said).toContain(
      "does not list client_secret_post (--client-auth post) among its token_endpoint_auth_methods_supported (client_secret_basic): --client-auth basic is the one it lists",
    );
  });

  it.each([
    [{ "auth-url": "http://127.0.0.1:9/auth" }, {}],
    [{}, { EVENT_API_TOKEN_URL: "http://127.0.0.1:9/token" }],
  ])("is exclusive with --auth-url and --token-url (%o %o)", async (extra, env) => {
    const error = await resolveAgainst([], extra, env).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(
      "give either --issuer (the token endpoint from its metadata) or --auth-url/--token-url, not both",
    );
  });

  it("is could-not-test when nobody answers for the issuer, saying what each URL met", async () => {
    const error = await resolveAgainst([], { issuer: "http://127.0.0.1:1/x" }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(CannotRunError);
    expect((error as Error).message).toMatch(
      /^could not test: could not read the metadata of the issuer http:\/\/127\.0\.0\.1:1\/x \(http:\/\/127\.0\.0\.1:1\/x\/\.well-known\/openid-configuration .*ECONNREFUSED/,
    );
  });

  it("keeps the metadata's introspection endpoint, but never a plain-http one under an https issuer", () => {
    const server = (introspectionEndpoint?: string) => ({
      issuer: "https://sso.example.com/realms/r",
      tokenEndpoint: "https://sso.example.com/realms/r/protocol/openid-connect/token",
      authMethods: ["client_secret_basic"],
      metadataUrl: "https://sso.example.com/realms/r/.well-known/openid-configuration",
      ...(introspectionEndpoint === undefined ? {} : { introspectionEndpoint }),
    });
    const notes: string[] = [];
    const note = (line: string) => notes.push(line);
    const https = "https://sso.example.com/realms/r/protocol/openid-connect/token/introspect";
    expect(introspectionOf("https://sso.example.com/realms/r", server(https), note)).toEqual({
      introspectionEndpoint: https,
    });
    expect(introspectionOf("https://sso.example.com/realms/r", server(), note)).toEqual({});
    const http = "http://sso.example.com/realms/r/protocol/openid-connect/token/introspect";
    expect(introspectionOf("https://sso.example.com/realms/r", server(http), note)).toEqual({});
    expect(notes).toEqual([
      `the metadata's introspection_endpoint ${http} is plain http where the issuer is https: it is not used`,
    ]);
    expect(introspectionOf("http://127.0.0.1:8080/realms/r", server(http), note)).toEqual({
      introspectionEndpoint: http,
    });
  });
});
