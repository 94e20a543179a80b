import { diagnoseTarget, diagnoseToken, switchedNote } from "../../../cli/preflight/index.ts";
import { CannotRunError } from "../../../core/index.ts";
import { DIRECT, MAX_RESPONSE_BODY_BYTES } from "../../../transport/connection/index.ts";
import type { ClientAuth, Target } from "../../../transport/index.ts";
import { Redactor, Secret } from "../../../transport/index.ts";
import { describe, expect } from "../../support/fixtures.ts";
import type { ScriptedAnswer, ScriptedRequest } from "../../support/scripted-server.ts";
import { it, json, startScriptedServer } from "../../support/scripted-server.ts";

const SECRET = "preflight-secret-71c2";
const TOKEN = "preflight-access-token-0f3a9b7c5d1e";
const credential = { clientId: "harness-client", clientSecret: SECRET };
const signal = new AbortController().signal;

function target(url: string, overrides: Partial<Target> = {}): Target {
  return {
    tokenUrl: `${url}/oauth/token`,
    baseUrl: `${url}/api`,
    clientId: credential.clientId,
    clientSecret: new Secret(SECRET),
    clientAuth: "post",
    timeoutMs: 5_000,
    connection: DIRECT,
    embedded: false,
    ...overrides,
  };
}

/** How the client authenticated in a token request, read from the request itself. */
function authOf(request: ScriptedRequest): ClientAuth {
  return request.headers.authorization?.toString().startsWith("Basic ") ? "basic" : "post";
}

const token = json(200, { access_token: TOKEN, token_type: "Bearer", expires_in: 300 });
const refusal = json(401, { error: "invalid_client" });

/** A token endpoint that gives a token only to `works`, and an events API that answers 401 to anyone. */
function onlyWith(works: ClientAuth | "none", other: ScriptedAnswer = refusal) {
  return (request: ScriptedRequest): ScriptedAnswer => {
    if (request.path === "/api/events") return json(401, { error: "invalid_token" });
    return authOf(request) === works ? token : other;
  };
}

async function refusedUrl(): Promise<string> {
  const server = await startScriptedServer(() => ({ status: 200 }));
  await server.close();
  return server.url;
}

async function failure(promise: Promise<unknown>): Promise<CannotRunError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CannotRunError);
  return error as CannotRunError;
}

describe("diagnoseTarget", () => {
  it("returns the token and the configured method when the first request gets one, then asks the events API", async ({
    scripted,
  }) => {
    const server = await scripted(onlyWith("post"));
    const ready = await diagnoseTarget(target(server.url), credential, new Redactor(), signal, {
      requireToken: true,
    });
    expect(ready).toEqual({ clientAuth: "post", token: { accessToken: TOKEN, expiresInSeconds: 300 } });
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /oauth/token",
      "POST /api/events",
    ]);
    const form = new URLSearchParams(server.requests[0]?.body);
    expect(form.get("client_secret")).toBe(SECRET);
    // The events request carries no credential of any kind.
    expect(server.requests[1]?.headers.authorization).toBeUndefined();
    expect(server.requests[1]?.body).toBe("{}");
  });

  it("says the token endpoint cannot be reached, naming its host and port", async () => {
    const url = await refusedUrl();
    const error = await failure(
      diagnoseTarget(target(url), credential, new Redactor(), signal, { requireToken: false }),
    );
    const port = new URL(url).port;
    expect(error.message).toBe(
      `cannot reach the token endpoint ${url}/oauth/token (127.0.0.1:${port}: connection refused)`,
    );
  });

  it("says the events endpoint cannot be reached after a token was had", async ({ scripted }) => {
    const server = await scripted(onlyWith("post"));
    const eventsAt = await refusedUrl();
    const error = await failure(
      diagnoseTarget(target(server.url, { baseUrl: eventsAt }), credential, new Redactor(), signal, {
        requireToken: true,
      }),
    );
    expect(error.message).toMatch(/^cannot reach the events endpoint http:\/\/127\.0\.0\.1:\d+\/events \(/);
    expect(error.message).toContain("connection refused");
  });
});

describe("diagnoseToken when the credentials are refused", () => {
  it("switches to the other method when it works and the method was defaulted, and says so", async ({
    scripted,
  }) => {
    const server = await scripted(onlyWith("basic"));
    const ready = await diagnoseToken(target(server.url), credential, new Redactor(), signal, {
      requireToken: true,
    });
    expect(ready).toEqual({
      clientAuth: "basic",
      refusedClientAuth: "post",
      token: { accessToken: TOKEN, expiresInSeconds: 300 },
    });
    expect(server.requests.map(authOf)).toEqual(["post", "basic"]);
    expect(switchedNote("harness-client", ready)).toBe(
      "the credentials for client harness-client were refused with --client-auth post but work with --client-auth basic: going on with basic",
    );
  });

  it("never switches a given method: a run that needs a token stops, the checks judge the given one", async ({
    scripted,
  }) => {
    const server = await scripted(onlyWith("basic"));
    const given = target(server.url, { clientAuthGiven: true });
    const error = await failure(
      diagnoseToken(given, credential, new Redactor(), signal, { requireToken: true }),
    );
    expect(error.message).toBe(
      "the credentials for client harness-client were refused with --client-auth post but work with --client-auth basic: " +
        "a given --client-auth is never switched; give --client-auth basic, or leave it out to let the harness choose",
    );
    const ready = await diagnoseToken(given, credential, new Redactor(), signal, { requireToken: false });
    expect(ready).toEqual({ clientAuth: "post", worksWith: "basic" });
    expect(switchedNote("harness-client", ready)).toContain("judging with post, as given");
  });

  it("says both methods were refused, with each status", async ({ scripted }) => {
    const server = await scripted(onlyWith("none", json(400, { error: "invalid_client" })));
    const error = await failure(
      diagnoseToken(target(server.url), credential, new Redactor(), signal, { requireToken: false }),
    );
    expect(error.message).toBe(
      "the credentials for client harness-client were refused (400 with --client-auth post, 400 with basic): " +
        "check the client id and secret, or whether the secret was rotated",
    );
  });

  it("points at the other method's answer when it is not a refusal of the credentials", async ({
    scripted,
  }) => {
    const server = await scripted((request) =>
      authOf(request) === "post" ? refusal : json(400, { error: "invalid_scope" }),
    );
    const error = await failure(
      diagnoseToken(target(server.url), credential, new Redactor(), signal, { requireToken: false }),
    );
    expect(error.message).toContain(
      "client harness-client was refused with --client-auth post (401 invalid_client), but with --client-auth basic the token endpoint answered 400 application/json invalid_scope",
    );
  });

  it("has no note when nothing was switched", () => {
    expect(switchedNote("c", { clientAuth: "post" })).toBeUndefined();
  });
});

describe("diagnoseToken with answers that carry no usable token", () => {
  it("says an answer too large for a token, on the first request or the other method's", async ({
    scripted,
  }) => {
    const flood: ScriptedAnswer = { status: 200, body: "x".repeat(MAX_RESPONSE_BODY_BYTES + 1) };
    const first = await scripted(() => flood);
    const error = await failure(
      diagnoseToken(target(first.url), credential, new Redactor(), signal, { requireToken: false }),
    );
    expect(error.message).toMatch(
      /^the token endpoint http:\/\/127\.0\.0\.1:\d+\/oauth\/token answered client harness-client with a body too large for a token \(/,
    );
    const second = await scripted((request) => (authOf(request) === "post" ? refusal : flood));
    const other = await failure(
      diagnoseToken(target(second.url), credential, new Redactor(), signal, { requireToken: false }),
    );
    expect(other.message).toMatch(
      /^the credentials for client harness-client were refused with --client-auth post \(401 invalid_client\), and the request with --client-auth basic got no answer \(/,
    );
  });

  it("says a URL that answers HTML is no token endpoint, and suggests the path without the doubled /oauth/token", async ({
    scripted,
  }) => {
    const server = await scripted(() => ({
      status: 404,
      headers: { "content-type": "text/html; charset=utf-8" },
      body: "<html><body>\u001b[2J Not   found</body></html>",
    }));
    const doubled = target(server.url, { tokenUrl: `${server.url}/oauth/token/oauth/token` });
    const error = await failure(
      diagnoseToken(doubled, credential, new Redactor(), signal, { requireToken: false }),
    );
    expect(error.message).toBe(
      `${server.url}/oauth/token/oauth/token is not a token endpoint: it answered 404 text/html ` +
        `"<html><body>\\x1b[2J Not found</body></html>"; did you mean --token-url ${server.url}/oauth/token?`,
    );
  });

  it("stops a run that needs a token on a token without a usable lifetime, never quoting the token", async ({
    scripted,
  }) => {
    const server = await scripted(() =>
      json(200, { access_token: TOKEN, token_type: "Bearer", expires_in: `${TOKEN} seconds` }),
    );
    const error = await failure(
      diagnoseToken(target(server.url), credential, new Redactor(), signal, { requireToken: true }),
    );
    expect(error.message).toMatch(
      /^the token endpoint http:\/\/127\.0\.0\.1:\d+\/oauth\/token gave client harness-client a token without a usable lifetime: /,
    );
    expect(error.message).toContain("<ACCESS_TOKEN>");
    expect(error.message).not.toContain(TOKEN);
    // The contract suite judges such an answer itself.
    await expect(
      diagnoseToken(target(server.url), credential, new Redactor(), signal, { requireToken: false }),
    ).resolves.toEqual({ clientAuth: "post" });
  });

  it("stops a run that needs a token on a redirect, and leaves it to the checks otherwise", async ({
    scripted,
  }) => {
    const server = await scripted(() => ({ status: 302, headers: { location: "/elsewhere" } }));
    const error = await failure(
      diagnoseToken(target(server.url), credential, new Redactor(), signal, { requireToken: true }),
    );
    expect(error.message).toMatch(/answered client harness-client .*302/);
    expect(server.requests).toHaveLength(1);
    await expect(
      diagnoseToken(target(server.url), credential, new Redactor(), signal, { requireToken: false }),
    ).resolves.toEqual({ clientAuth: "post" });
  });

  it("quotes a 5xx for a run that needs a token, with the client id made inert", async ({ scripted }) => {
    const server = await scripted(() => ({
      status: 503,
      headers: { "content-type": "text/plain" },
      body: "down",
    }));
    const hostile = { ...credential, clientId: "client\u001b]0;owned\u0007" };
    const error = await failure(
      diagnoseToken(target(server.url), hostile, new Redactor(), signal, { requireToken: true }),
    );
    expect(error.message).toBe(
      'the token endpoint answered 503 text/plain "down" for client client\\x1b]0;owned\\x07: no token to run with',
    );
  });
});
