import { createServer } from "node:http";
import type { CheckResult, RotationExpectations } from "../../../contracts/index.ts";
import { DIRECT, executeCheck, Probe, Redactor, rotationChecks, Secret } from "../../../contracts/index.ts";
import { createEventGenerator, INVALID_VARIANTS } from "../../../generators/index.ts";
import type { RunningSandbox } from "../../../sandbox/index.ts";
import { readBody } from "../../support/bearer-events-api.ts";
import { describe, expect, test } from "../../support/fixtures.ts";
import { listenOnLoopback } from "../../support/loopback.ts";

/** What the fake introspection endpoint answers for a token, given whether it is the old one. */
type Answer = (isOld: boolean) => { status: number; body: unknown };

interface Introspection {
  readonly url: string;
  /** The old token, which the endpoint tells from the others. */
  oldToken: string;
  answer: Answer;
  /** Every request's Authorization header and form. */
  readonly requests: Array<{ authorization: string | undefined; form: URLSearchParams }>;
}

/** A loopback RFC 7662 endpoint whose answers each test sets, closed after the test. */
const it = test.extend(
  "introspection",
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
  async ({}, { onCleanup }): Promise<Introspection> => {
    const requests: Introspection["requests"] = [];
    const state: { oldToken: string; answer: Answer } = {
      oldToken: "",
      answer: () => ({ status: 200, body: { active: true } }),
    };
    const server = createServer(async (req, res) => {
      const form = new URLSearchParams((await readBody(req)).text);
      requests.push({ authorization: req.headers.authorization, form });
      const { status, body } = state.answer(form.get("token") === state.oldToken);
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
    const loopback = await listenOnLoopback(server);
    onCleanup(() => loopback.close());
    return {
      url: `${loopback.url}/introspect`,
      requests,
      get oldToken() {
        return state.oldToken;
      },
      set oldToken(token) {
        state.oldToken = token;
      },
      get answer() {
        return state.answer;
      },
      set answer(answer) {
        state.answer = answer;
      },
    };
  },
);

let calls = 0;

/** The old token (kept valid by the sandbox unless `revoke`), the rotation, then rotation.old-tokens with introspection. */
async function oldTokens(
  running: RunningSandbox,
  introspection: Introspection,
  expectations: Pick<RotationExpectations, "expectOldTokens">,
  options: { readonly revoke?: boolean; readonly clientAuth?: "post" | "basic" } = {},
): Promise<CheckResult & { readonly newSecret: string }> {
  const oldToken = await running.issueToken("sandbox-demo");
  introspection.oldToken = oldToken;
  const rotated = await running.rotateSecret("sandbox-demo", {
    overlapSeconds: 0,
    revokeTokens: options.revoke === true,
  });
  const check = rotationChecks({ oldToken: new Secret(oldToken), ...expectations }).find(
    (candidate) => candidate.id === "rotation.old-tokens",
  );
  if (check === undefined) throw new Error("no check rotation.old-tokens");
  // Each call its own references: a test runs several against one sandbox.
  calls += 1;
  const events = createEventGenerator({
    seed: calls,
    runId: `introspect${calls}`,
    referencePrefix: "eah-introspect-",
  });
  const probe = new Probe({
    target: {
      tokenUrl: running.tokenUrl,
      baseUrl: running.baseUrl,
      clientId: "sandbox-demo",
      clientSecret: new Secret(rotated.clientSecret),
      clientAuth: options.clientAuth ?? "post",
      connection: DIRECT,
      timeoutMs: 5_000,
      embedded: false,
      issuer: running.authUrl,
      introspectionEndpoint: introspection.url,
    },
    redactor: new Redactor(),
    nextEvent: () => events.next(),
    eventBreakers: INVALID_VARIANTS,
  });
  return { ...(await executeCheck(check, probe)), newSecret: rotated.clientSecret };
}

/** An endpoint that calls the fresh token active and the old one inactive: the server revoked it. */
const revokedAtServer: Answer = (isOld) => ({
  status: 200,
  body: isOld ? { active: false } : { active: true },
});

describe("rotation.old-tokens asks the issuer's introspection endpoint", () => {
  it("names an API that still accepts a token the server revoked: the API's choice, a WARN, never a PASS or a FAIL", async ({
    sandbox,
    introspection,
  }) => {
    introspection.answer = revokedAtServer;
    const running = await sandbox({ expiresIn: 300 });
    const revoked = await oldTokens(running, introspection, { expectOldTokens: "revoked" });
    expect(revoked.status, revoked.message).toBe("WARN");
    expect(revoked.message).toMatch(
      /^revoked by the server, not by the API: the authorization server revoked it \(the issuer's introspection endpoint calls it inactive, and a fresh token active\), but the API still accepts it \(202\): the API checks the token itself, not whether it was revoked, so it works until it expires \(its exp: [0-9T:.Z-]+\); that is the API's choice/,
    );
    const valid = await oldTokens(running, introspection, { expectOldTokens: "valid" });
    expect(valid.status, valid.message).toBe("WARN");
    expect(valid.message).toMatch(/^valid at the API, but revoked by the server: /);
    const observed = await oldTokens(running, introspection, {});
    expect(observed.status).toBe("PASS");
    expect(observed.message).toMatch(/^the authorization server revoked it /);
  });

  it("asks with the client's credentials as at the token endpoint, the fresh token first", async ({
    sandbox,
    introspection,
  }) => {
    introspection.answer = revokedAtServer;
    const running = await sandbox({ expiresIn: 300 });
    const { newSecret } = await oldTokens(
      running,
      introspection,
      { expectOldTokens: "revoked" },
      { clientAuth: "basic" },
    );
    expect(introspection.requests).toHaveLength(2);
    const [fresh, old] = introspection.requests;
    expect(fresh?.form.get("token")).not.toBe(introspection.oldToken);
    expect(old?.form.get("token")).toBe(introspection.oldToken);
    for (const request of introspection.requests) {
      expect(request.form.get("token_type_hint")).toBe("access_token");
      expect(request.form.has("client_secret")).toBe(false);
      const [id, secret] = Buffer.from(request.authorization?.replace(/^Basic /, "") ?? "", "base64")
        .toString()
        .split(":");
      expect(id).toBe("sandbox-demo");
      expect(secret).toBe(newSecret);
    }
  });

  it("believes no endpoint that calls a fresh, working token inactive too (Keycloak's answer outside the audience)", async ({
    sandbox,
    introspection,
  }) => {
    introspection.answer = () => ({ status: 200, body: { active: false } });
    const running = await sandbox({ expiresIn: 300 });
    const revoked = await oldTokens(running, introspection, { expectOldTokens: "revoked" });
    expect(revoked.status).toBe("FAIL");
    expect(revoked.message).toMatch(
      /^expected the earlier token to be revoked, but it is valid: .*; whether the server revoked it is not known: the issuer's introspection endpoint does not call a fresh, working token active \(it answered active: false\)/,
    );
    const valid = await oldTokens(running, introspection, { expectOldTokens: "valid" });
    expect(valid.status, valid.message).toBe("PASS");
    expect(valid.message).toBe("the earlier token is valid (202)");
  });

  it("says a refusal is the API's own when the server still calls the token active", async ({
    sandbox,
    introspection,
  }) => {
    introspection.answer = () => ({ status: 200, body: { active: true } });
    const running = await sandbox({ expiresIn: 300 });
    const valid = await oldTokens(running, introspection, { expectOldTokens: "valid" }, { revoke: true });
    expect(valid.status).toBe("FAIL");
    expect(valid.message).toMatch(
      /^expected the earlier token to be valid, but the API refuses it \(401\) although the issuer's introspection endpoint still calls it active, and a fresh token active: the refusal is the API's own, not a revocation by the server/,
    );
    const revoked = await oldTokens(running, introspection, { expectOldTokens: "revoked" }, { revoke: true });
    expect(revoked.status).toBe("PASS");
    expect(revoked.message).toMatch(/^the earlier token is refused \(401\); the API refuses it/);
  });

  it("adds the server's word to a revocation the token's age already shows", async ({
    sandbox,
    introspection,
  }) => {
    introspection.answer = revokedAtServer;
    const running = await sandbox({ expiresIn: 300 });
    const revoked = await oldTokens(running, introspection, { expectOldTokens: "revoked" }, { revoke: true });
    expect(revoked.status).toBe("PASS");
    expect(revoked.message).toMatch(
      /^the earlier token is revoked \(401; .*; the issuer's introspection endpoint calls it inactive, and a fresh token active\)$/,
    );
  });

  it.for([
    [500, { error: "server_error" }],
    [200, { not: "introspection" }],
    [302, {}],
  ] as const)(
    "takes an endpoint that answers %i %o as no answer, never as the API's failure",
    async ([status, body], { sandbox, introspection }) => {
      introspection.answer = (isOld) => (isOld ? { status, body } : { status: 200, body: { active: true } });
      const running = await sandbox({ expiresIn: 300 });
      const valid = await oldTokens(running, introspection, { expectOldTokens: "valid" });
      expect(valid.status, valid.message).toBe("PASS");
      const revoked = await oldTokens(running, introspection, { expectOldTokens: "revoked" });
      expect(revoked.status).toBe("FAIL");
      expect(revoked.message).toMatch(
        /whether the server revoked it is not known: the issuer's introspection endpoint gave no answer on it/,
      );
    },
  );
});
