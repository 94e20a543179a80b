import { attemptToken } from "../../../cli/preflight/token-attempt.ts";
import { DIRECT, MAX_RESPONSE_BODY_BYTES } from "../../../transport/connection/index.ts";
import type { Target } from "../../../transport/index.ts";
import { Secret } from "../../../transport/index.ts";
import { describe, expect } from "../../support/fixtures.ts";
import { it, startScriptedServer } from "../../support/scripted-server.ts";

const credential = { clientId: "file-client", clientSecret: "file-secret-42" };
const signal = new AbortController().signal;

function target(url: string): Target {
  return {
    tokenUrl: `${url}/oauth/token`,
    baseUrl: `${url}/api`,
    audience: "api://events",
    scope: "events:write",
    tokenParams: { tenant: "t1" },
    clientId: "target-client",
    clientSecret: new Secret("target-secret"),
    clientAuth: "post",
    timeoutMs: 5_000,
    connection: DIRECT,
    embedded: false,
  };
}

describe("attemptToken", () => {
  it("posts the credential's id and secret with the target's fields, and returns the answer as received", async ({
    scripted,
  }) => {
    const server = await scripted(() => ({
      status: 302,
      headers: { "content-type": "text/plain; charset=utf-8", location: "https://elsewhere.example/x" },
      body: "moved",
    }));
    const attempt = await attemptToken(target(server.url), credential, "post", signal);
    expect(attempt).toEqual({
      kind: "answer",
      status: 302,
      contentType: "text/plain; charset=utf-8",
      location: "https://elsewhere.example/x",
      text: "moved",
    });
    const [request] = server.requests;
    expect(request?.path).toBe("/oauth/token");
    expect(request?.headers.accept).toBe("application/json");
    expect(request?.headers.authorization).toBeUndefined();
    expect(Object.fromEntries(new URLSearchParams(request?.body))).toEqual({
      client_id: "file-client",
      client_secret: "file-secret-42",
      grant_type: "client_credentials",
      audience: "api://events",
      scope: "events:write",
      tenant: "t1",
    });
  });

  it("sends the credential in a Basic header, not the form, with basic", async ({ scripted }) => {
    const server = await scripted(() => ({ status: 200, body: "{}" }));
    const attempt = await attemptToken(target(server.url), credential, "basic", signal);
    expect(attempt).toMatchObject({ kind: "answer", status: 200, contentType: "", text: "{}" });
    const [request] = server.requests;
    const header = request?.headers.authorization?.toString() ?? "";
    expect(header).toMatch(/^Basic /);
    expect(Buffer.from(header.slice("Basic ".length), "base64").toString("utf8")).toBe(
      "file-client:file-secret-42",
    );
    expect(new URLSearchParams(request?.body).has("client_secret")).toBe(false);
  });

  it("says an answer past the body cap is too large, not unreachable", async ({ scripted }) => {
    const server = await scripted(() => ({ status: 200, body: "x".repeat(MAX_RESPONSE_BODY_BYTES + 1) }));
    const attempt = await attemptToken(target(server.url), credential, "post", signal);
    expect(attempt.kind).toBe("too-large");
  });

  it("says why there was no answer: a refused connection, or the run's own abort", async ({ scripted }) => {
    const closed = await startScriptedServer(() => ({ status: 200 }));
    await closed.close();
    expect(await attemptToken(target(closed.url), credential, "post", signal)).toEqual({
      kind: "unreachable",
      reason: "connection refused",
      connectFailed: true,
    });
    const server = await scripted(() => ({ status: 200 }));
    const aborted = AbortSignal.abort(new Error("interrupted by the user"));
    const attempt = await attemptToken(target(server.url), credential, "post", aborted);
    expect(attempt).toMatchObject({ kind: "unreachable", connectFailed: false });
    expect(attempt.kind === "unreachable" ? attempt.reason : "").toMatch(/interrupted by the user$/);
  });
});
