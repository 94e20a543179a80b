import { callAdminEndpoint, takeToken } from "../../../cli/rotation/admin-requests.ts";
import { RotationUnconfirmedError, UsageError } from "../../../core/index.ts";
import { DIRECT } from "../../../transport/connection/index.ts";
import { Redactor } from "../../../transport/index.ts";
import { describe, expect } from "../../support/fixtures.ts";
import type { ScriptedAnswer } from "../../support/scripted-server.ts";
import { it, json, startScriptedServer } from "../../support/scripted-server.ts";

const ADMIN_TOKEN = "admin-token-5b8e2f0c7a41";
const reach = { timeoutMs: 5_000, connection: DIRECT };
const signal = new AbortController().signal;
const rotation = { overlapSeconds: 45, revokeTokens: true };
const good = {
  client_id: "ci-client",
  client_secret: "rotated-secret-8c1d",
  "not-before-policy": 1_700_000_000,
  old_secret_valid_until: 1_700_000_045,
};

function redactor(): Redactor {
  return new Redactor().addWithBase64(ADMIN_TOKEN, "<ADMIN_TOKEN>");
}

async function thrown(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

describe("callAdminEndpoint", () => {
  async function call(url: string) {
    const endpoint = `${url}/auth/admin/clients/ci-client/rotate`;
    return callAdminEndpoint(
      endpoint,
      { adminToken: ADMIN_TOKEN, clientId: "ci-client", base: `${url}/auth` },
      rotation,
      reach,
      redactor(),
      signal,
    );
  }

  it("sends the rotation asked for with the admin token, and returns the checked answer", async ({
    scripted,
  }) => {
    const server = await scripted(() => json(200, good));
    await expect(call(server.url)).resolves.toEqual(good);
    const [request] = server.requests;
    expect(request?.path).toBe("/auth/admin/clients/ci-client/rotate");
    expect(request?.headers.authorization).toBe(`Bearer ${ADMIN_TOKEN}`);
    expect(JSON.parse(request?.body ?? "")).toEqual({ overlap_seconds: 45, revoke_tokens: true });
  });

  it.for([
    [
      401,
      "UsageError",
      /^the sandbox refused the admin token \(401: bad <ADMIN_TOKEN>\); check EVENT_HARNESS_ADMIN_TOKEN$/,
    ],
    [404, "UsageError", /answered 404: bad <ADMIN_TOKEN> \(is --client-id registered/],
    [503, "RotationUnconfirmedError", /^the admin endpoint answered 503: bad <ADMIN_TOKEN>$/],
  ] as const)(
    "answers %i as a %s, quoting the server's words with the admin token hidden",
    async ([status, kind, message], { scripted }) => {
      const server = await scripted(() => json(status, { error_description: `bad ${ADMIN_TOKEN}` }));
      const error = await thrown(call(server.url));
      expect(error.constructor.name).toBe(kind);
      expect(error.message).toMatch(message);
      expect(error.message).not.toContain(ADMIN_TOKEN);
      if (error instanceof UsageError) expect(error.code).toBe("invalid-config");
    },
  );

  it("follows no redirect: the admin token stays with the URL given", async ({ scripted }) => {
    const elsewhere = await scripted(() => json(200, good));
    const server = await scripted(
      (): ScriptedAnswer => ({ status: 307, headers: { location: `${elsewhere.url}/steal` } }),
    );
    const error = await thrown(call(server.url));
    expect(error).toBeInstanceOf(RotationUnconfirmedError);
    expect(error.message).toMatch(
      /answered 307 with a redirect to http:\/\/127\.0\.0\.1:\d+ .*nothing was rotated there$/,
    );
    expect(elsewhere.requests).toEqual([]);
  });

  it("refuses a 200 whose rotation is not the client's, saying the secret may have changed", async ({
    scripted,
  }) => {
    const server = await scripted(() => json(200, { ...good, client_id: "someone-else" }));
    const error = await thrown(call(server.url));
    expect(error).toBeInstanceOf(RotationUnconfirmedError);
    expect(error.message).toBe(
      `the admin endpoint answered 200 with no usable rotation (client_id is not the client that was asked for); the secret of client ci-client at ${server.url}/auth may have changed: rotate again to get a usable one`,
    );
  });

  it("says nothing was rotated when the endpoint cannot be reached", async () => {
    const closed = await startScriptedServer(() => ({ status: 200 }));
    await closed.close();
    const error = await thrown(call(closed.url));
    expect(error).toBeInstanceOf(RotationUnconfirmedError);
    expect(error.message).toMatch(/^cannot reach the admin endpoint .*; nothing was rotated$/);
  });
});

describe("takeToken", () => {
  const take = (url: string, secret = "current-secret-11") =>
    takeToken(`${url}/auth/oauth/token`, "ci-client", secret, reach, redactor(), signal);

  it("asks for a token with the current secret in the form, and returns it", async ({ scripted }) => {
    const server = await scripted(() => json(200, { access_token: "old-token-xyz", expires_in: 60 }));
    await expect(take(server.url)).resolves.toBe("old-token-xyz");
    const form = new URLSearchParams(server.requests[0]?.body);
    expect(Object.fromEntries(form)).toEqual({
      client_id: "ci-client",
      client_secret: "current-secret-11",
      grant_type: "client_credentials",
    });
  });

  it("says a refused secret is not the current one, as a usage error", async ({ scripted }) => {
    const server = await scripted(() => json(401, { error: "invalid_client" }));
    const error = await thrown(take(server.url));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toMatch(
      /^EVENT_API_CLIENT_SECRET is not the current secret of client ci-client \(401 invalid_client from .*\); nothing was rotated/,
    );
  });

  it("takes a 200 without an access token as no token, and a 404 as the wrong auth URL", async ({
    scripted,
  }) => {
    const empty = await scripted(() => json(200, { access_token: "" }));
    const none = await thrown(take(empty.url));
    expect(none).toBeInstanceOf(RotationUnconfirmedError);
    expect(none.message).toMatch(/gave no token for the current secret \(200\); nothing was rotated$/);
    const missing = await scripted(() => json(404, {}));
    const wrong = await thrown(take(missing.url));
    expect(wrong).toBeInstanceOf(UsageError);
    expect(wrong.message).toMatch(
      /answered 404 \(is --auth-url the sandbox's auth URL\?\); nothing was rotated$/,
    );
  });
});
