import { createServer } from "node:http";
import { printToken } from "../../../cli/token/print-token.ts";
import { UsageError } from "../../../core/index.ts";
import { capturedIo } from "../../support/command-io.ts";
import { it as base, describe, expect } from "../../support/fixtures.ts";
import { listenOnLoopback } from "../../support/loopback.ts";

const SECRET = "print-token-secret-0123456789";
const CLIENT = { clientId: "print-client", clientSecret: SECRET };

/** A token endpoint on loopback that issues `accessToken` to anyone, closed after the test. */
// biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
const it = base.extend("issuing", async ({}, { onCleanup }) => {
  return async (accessToken: string): Promise<string> => {
    const server = await listenOnLoopback(
      createServer((req, res) => {
        req.resume();
        req.on("end", () => {
          res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
          res.end(JSON.stringify({ access_token: accessToken, token_type: "Bearer", expires_in: 60 }));
        });
      }),
    );
    onCleanup(() => server.close());
    return server.url;
  };
});

describe("printToken", () => {
  it("prints the token alone on stdout, which the API accepts; stderr says whence, without it", async ({
    sandbox,
  }) => {
    const api = await sandbox({ clients: [CLIENT] });
    const run = capturedIo({
      EVENT_API_AUTH_URL: api.authUrl,
      EVENT_API_BASE_URL: api.baseUrl,
      EVENT_API_CLIENT_ID: CLIENT.clientId,
      EVENT_API_CLIENT_SECRET: SECRET,
    });
    expect(await printToken({}, run.io)).toBe(0);
    expect(run.stdout()).toMatch(/^[A-Za-z0-9\-._~+/]+=*\n$/);
    const token = run.stdout().trim();
    expect(run.stderr()).toBe(
      `event-harness token: token for client print-client from ${api.tokenUrl}, expires_in 300s\n`,
    );
    const read = await fetch(`${api.baseUrl}/events/no-such-ref`, {
      headers: { authorization: `Bearer ${token}` },
    });
    // 404, not 401: the token was accepted and the event looked up.
    expect(read.status).toBe(404);
  });

  it("needs no base URL when the audience is given, since it sends no event", async ({ sandbox }) => {
    const api = await sandbox({ clients: [CLIENT] });
    const run = capturedIo({
      EVENT_API_AUTH_URL: api.authUrl,
      EVENT_API_AUDIENCE: api.baseUrl,
      EVENT_API_CLIENT_ID: CLIENT.clientId,
      EVENT_API_CLIENT_SECRET: SECRET,
    });
    expect(await printToken({}, run.io)).toBe(0);
    expect(run.stdout()).toMatch(/^\S+\n$/);
    expect(run.stderr()).not.toContain("base-url.invalid");
  });

  it("says no token (exit 3) for a refused secret, never quoting it", async ({ sandbox }) => {
    const api = await sandbox({ clients: [CLIENT] });
    const wrong = "wrong-secret-never-shown";
    const run = capturedIo({
      EVENT_API_AUTH_URL: api.authUrl,
      EVENT_API_BASE_URL: api.baseUrl,
      EVENT_API_CLIENT_ID: CLIENT.clientId,
      EVENT_API_CLIENT_SECRET: wrong,
    });
    expect(await printToken({}, run.io)).toBe(3);
    expect(run.stdout()).toBe("");
    expect(run.stderr()).toMatch(
      /^event-harness token: no token: the credentials for client print-client were refused/,
    );
    expect(run.stderr()).not.toContain(wrong);
  });

  it("refuses to print a token that is no b64token (exit 3), saying its length only", async ({ issuing }) => {
    const url = await issuing("abc\u001b]0;owned\u0007def");
    const run = capturedIo({
      EVENT_API_TOKEN_URL: `${url}/token`,
      EVENT_API_BASE_URL: `${url}/api`,
      EVENT_API_CLIENT_ID: "c",
      EVENT_API_CLIENT_SECRET: "s3cret-value",
    });
    expect(await printToken({}, run.io)).toBe(3);
    expect(run.stdout()).toBe("");
    expect(run.stderr()).toContain("an access_token of 16 characters that are not all RFC 6750 b64token");
    expect(run.stderr()).not.toContain("owned");
    expect(run.stderr()).not.toContain("\u001b");
  });

  it("prints a token of every b64token character", async ({ issuing }) => {
    const url = await issuing("AZaz09-._~+/abc==");
    const run = capturedIo({
      EVENT_API_TOKEN_URL: `${url}/token`,
      EVENT_API_BASE_URL: `${url}/api`,
      EVENT_API_CLIENT_ID: "c",
      EVENT_API_CLIENT_SECRET: "s3cret-value",
    });
    expect(await printToken({}, run.io)).toBe(0);
    expect(run.stdout()).toBe("AZaz09-._~+/abc==\n");
  });

  it("refuses to run without a target, since the embedded sandbox would stop with it", async () => {
    const error: unknown = await printToken({}, capturedIo({}).io).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).code).toBe("invalid-config");
    expect((error as UsageError).message).toMatch(/^token needs a target: /);
  });
});
