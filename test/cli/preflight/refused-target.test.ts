import { refusedTarget } from "../../../cli/preflight/refused-target.ts";
import type { TokenAttempt } from "../../../cli/preflight/token-attempt.ts";
import { DIRECT } from "../../../transport/connection/index.ts";
import type { Target } from "../../../transport/index.ts";
import { Redactor, Secret } from "../../../transport/index.ts";
import { describe, expect } from "../../support/fixtures.ts";
import type { ScriptedRequest } from "../../support/scripted-server.ts";
import { it, json } from "../../support/scripted-server.ts";

const credential = { clientId: "ci-client", clientSecret: "refused-target-secret" };
const signal = new AbortController().signal;
const token = json(200, { access_token: "tok-123", token_type: "Bearer", expires_in: 60 });

function target(url: string, overrides: Partial<Target> = {}): Target {
  return {
    tokenUrl: `${url}/oauth/token`,
    baseUrl: `${url}/api`,
    audience: `${url}/api`,
    clientId: credential.clientId,
    clientSecret: new Secret(credential.clientSecret),
    clientAuth: "post",
    timeoutMs: 5_000,
    connection: DIRECT,
    embedded: false,
    ...overrides,
  };
}

function refusal(status: number, body: unknown): Extract<TokenAttempt, { kind: "answer" }> {
  return {
    kind: "answer",
    status,
    contentType: "application/json",
    text: JSON.stringify(body),
    location: undefined,
  };
}

const formOf = (request: ScriptedRequest | undefined) =>
  Object.fromEntries(new URLSearchParams(request?.body));

/** A token endpoint that refuses any request naming an audience, and gives a token otherwise. */
function refusesAudience(request: ScriptedRequest) {
  return new URLSearchParams(request.body).has("audience") ? json(400, { error: "invalid_target" }) : token;
}

describe("refusedTarget", () => {
  it("blames the audience when the same request without it gets a token, and says how to change it", async ({
    scripted,
  }) => {
    const server = await scripted(refusesAudience);
    const given = target(server.url);
    const error = await refusedTarget(
      given,
      credential,
      "post",
      refusal(400, { error: "invalid_target" }),
      new Redactor(),
      signal,
    );
    expect(error?.message).toBe(
      `the token endpoint ${server.url}/oauth/token refused the audience ${server.url}/api (the base URL, which is the audience unless --audience sets one) ` +
        "for client ci-client: it answered 400 application/json invalid_target, and gave a token to the same request without it; " +
        'check --base-url (events go to {base-url}/events); give --audience the identifier the server registers for this API, or --audience none ("audience": "none" in a config file) to send none',
    );
    expect(server.requests).toHaveLength(1);
    expect(formOf(server.requests[0])).not.toHaveProperty("audience");
    expect(formOf(server.requests[0])).toMatchObject({
      client_id: "ci-client",
      grant_type: "client_credentials",
    });
  });

  it("retries without only the field the server's words name, keeping the other", async ({ scripted }) => {
    const server = await scripted(() => json(400, { error: "invalid_request" }));
    const given = target(server.url, { audience: "api://events", resource: "https://rs.example/events" });
    const error = await refusedTarget(
      given,
      credential,
      "post",
      refusal(400, {
        error: "invalid_request",
        error_description: "Unknown resource https://rs.example/events",
      }),
      new Redactor(),
      signal,
    );
    expect(formOf(server.requests[0])).toMatchObject({ audience: "api://events" });
    expect(formOf(server.requests[0])).not.toHaveProperty("resource");
    expect(error?.message).toMatch(
      /refused the resource https:\/\/rs\.example\/events \(--resource\) for client ci-client: /,
    );
    expect(error?.message).not.toContain("gave a token");
    expect(error?.message).toMatch(
      /; give --resource the identifier the server registers for this API, or leave --resource out$/,
    );
  });

  it("is undefined for a refusal that is not about the API named: nothing to blame and no token without it", async ({
    scripted,
  }) => {
    const server = await scripted(() => json(400, { error: "invalid_request" }));
    await expect(
      refusedTarget(
        target(server.url),
        credential,
        "post",
        refusal(400, { error: "invalid_request" }),
        new Redactor(),
        signal,
      ),
    ).resolves.toBeUndefined();
    expect(server.requests).toHaveLength(1);
  });

  it("asks nothing for a 401 or 5xx, or when neither field is sent", async ({ scripted }) => {
    const server = await scripted(() => token);
    const redactor = new Redactor();
    for (const status of [401, 500]) {
      await expect(
        refusedTarget(
          target(server.url),
          credential,
          "post",
          refusal(status, { error: "invalid_target" }),
          redactor,
          signal,
        ),
      ).resolves.toBeUndefined();
    }
    const { audience: _, ...withoutAudience } = target(server.url);
    await expect(
      refusedTarget(
        withoutAudience,
        credential,
        "post",
        refusal(400, { error: "invalid_target" }),
        redactor,
        signal,
      ),
    ).resolves.toBeUndefined();
    expect(server.requests).toEqual([]);
  });

  it("shows a hostile audience inert, and an --audience apart from the base URL as given", async ({
    scripted,
  }) => {
    const server = await scripted(refusesAudience);
    const error = await refusedTarget(
      target(server.url, { audience: "aud\u001b[31m\u202e" }),
      credential,
      "basic",
      refusal(403, { error: "access_denied", error_description: "audience not allowed" }),
      new Redactor(),
      signal,
    );
    expect(error?.message).toContain("refused the audience aud\\x1b[31m\\u202e (--audience) for client");
    expect(error?.message).not.toContain("check --base-url");
    expect(server.requests[0]?.headers.authorization).toMatch(/^Basic /);
  });
});
