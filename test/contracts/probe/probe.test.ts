import type { IncomingHttpHeaders } from "node:http";
import { DIRECT, Probe, Redactor, Secret, UnansweredEndpoints } from "../../../contracts/index.ts";
import {
  PrerequisiteError,
  RedirectAnswerError,
  ServerFailureError,
  TransportError,
  UndecidableError,
} from "../../../core/index.ts";
import type { RunningSandbox } from "../../../sandbox/index.ts";
import { sandboxProbe } from "../../support/contract-checks.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import type { Interposition } from "../../support/interposing-server.ts";
import { startInterposingServer } from "../../support/interposing-server.ts";

/** A probe of a target that answers from nowhere (port 9): for what a probe builds without sending. */
function offlineProbe(
  overrides: { clientAuth?: "post" | "basic"; introspectionEndpoint?: string } = {},
): Probe {
  return new Probe({
    target: {
      tokenUrl: "http://127.0.0.1:9/auth/oauth/token",
      baseUrl: "http://127.0.0.1:9/api",
      audience: "http://127.0.0.1:9/api",
      clientId: "shop-client",
      clientSecret: new Secret("s3cret:with colon"),
      clientAuth: overrides.clientAuth ?? "post",
      connection: DIRECT,
      timeoutMs: 1_000,
      embedded: false,
      ...(overrides.introspectionEndpoint === undefined
        ? {}
        : { introspectionEndpoint: overrides.introspectionEndpoint }),
    },
    redactor: new Redactor(),
    nextEvent: () => ({ reference: "fixed" }),
    eventBreakers: [],
  });
}

/** The sandbox behind a front that answers the requests `decide` picks itself; closed with the test's sandbox. */
async function frontedProbe(
  sandbox: RunningSandbox,
  decide: (method: string, path: string, headers: IncomingHttpHeaders) => Interposition,
  onCleanup: (close: () => Promise<void>) => void,
  redactor?: Redactor,
): Promise<Probe> {
  const front = await startInterposingServer(new URL(sandbox.baseUrl).origin, (method, path, headers) =>
    decide(method, path, headers),
  );
  onCleanup(() => front.close());
  return sandboxProbe(
    sandbox,
    { tokenUrl: front.url(sandbox.tokenUrl), baseUrl: front.url(sandbox.baseUrl) },
    redactor === undefined ? {} : { redactor },
  );
}

describe("Probe.tokenRequest", () => {
  it("sends the spec's form with the client's credentials as form fields by default", () => {
    const request = offlineProbe().tokenRequest();
    expect(request.method).toBe("POST");
    expect(request.url).toBe("http://127.0.0.1:9/auth/oauth/token");
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({
      grant_type: "client_credentials",
      client_id: "shop-client",
      client_secret: "s3cret:with colon",
      audience: "http://127.0.0.1:9/api",
    });
  });

  it("overrides a field, and leaves out one overridden with undefined", () => {
    const form = new URLSearchParams(
      offlineProbe().tokenRequest({ grant_type: "password", audience: undefined }).body,
    );
    expect(form.get("grant_type")).toBe("password");
    expect(form.has("audience")).toBe(false);
  });

  it("moves the credentials, overridden ones too, into a Basic header with HTTP Basic", () => {
    const request = offlineProbe().tokenRequest({ client_secret: "other" }, "basic");
    const authorization = request.headers.authorization ?? "";
    expect(authorization).toMatch(/^Basic /);
    // RFC 6749 §2.3.1: each part form-encoded before base64.
    expect(Buffer.from(authorization.slice(6), "base64").toString("utf8")).toBe("shop-client:other");
    const form = new URLSearchParams(request.body);
    expect(form.has("client_secret")).toBe(false);
    expect(form.has("client_id")).toBe(false);
  });
});

describe("Probe.introspectionRequest", () => {
  it("is undefined without an introspection endpoint", () => {
    expect(offlineProbe().introspectionRequest("tok")).toBeUndefined();
  });

  it("asks the endpoint about the token, authenticating as at the token endpoint", () => {
    const request = offlineProbe({
      introspectionEndpoint: "http://127.0.0.1:9/introspect",
      clientAuth: "basic",
    }).introspectionRequest("the-token");
    expect(request?.url).toBe("http://127.0.0.1:9/introspect");
    expect(Object.fromEntries(new URLSearchParams(request?.body))).toEqual({
      token: "the-token",
      token_type_hint: "access_token",
    });
    expect(Buffer.from((request?.headers.authorization ?? "").slice(6), "base64").toString()).toBe(
      "shop-client:s3cret%3Awith+colon",
    );
  });
});

describe("Probe against the sandbox", () => {
  it("obtains a token with its lifetime, and records the exchange with the token and secret hidden", async ({
    sandbox,
  }) => {
    const target = await sandbox({ expiresIn: 42 });
    const probe = sandboxProbe(target);
    const issued = await probe.obtainToken("get one");
    expect(issued.expiresIn).toBe(42);
    expect(issued.response.status).toBe(200);
    expect(probe.evidence).toHaveLength(1);
    const [evidence] = probe.evidence;
    expect(evidence?.label).toBe("get one");
    expect(JSON.parse(evidence?.response?.body ?? "").access_token).toBe("<ACCESS_TOKEN>");
    const shown = JSON.stringify(probe.evidence);
    expect(shown).not.toContain(issued.accessToken);
    expect(shown).not.toContain(target.clients[0]?.clientSecret);
  });

  it("posts an event with the Bearer token to {base_url}/events", async ({ sandbox }) => {
    const target = await sandbox();
    const probe = sandboxProbe(target);
    const { accessToken } = await probe.obtainToken();
    const response = await probe.postEvent("create", accessToken);
    expect(response.status).toBe(202);
    expect(probe.evidence[1]?.request.url).toBe(`${target.baseUrl}/events`);
    expect(probe.evidence[1]?.request.headers.authorization).toBe("Bearer <ACCESS_TOKEN>");
  });

  it("throws PrerequisiteError when the token endpoint gives no token", async ({ sandbox }) => {
    const probe = sandboxProbe(await sandbox(), { clientSecret: new Secret("not-the-secret") });
    await expect(probe.obtainToken()).rejects.toThrow(
      new PrerequisiteError(
        "needs an access token, but the token endpoint answered 401 without one (see token.issued)",
      ),
    );
    expect(probe.evidence).toHaveLength(1);
  });

  it("fails a 5xx as a MUST under the endpoint's rule, unless the check judges it itself", async ({
    sandbox,
  }) => {
    const probe = sandboxProbe(await sandbox(["events-5xx"]));
    const { accessToken } = await probe.obtainToken();
    const failure = await probe.postEvent("create", accessToken).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ServerFailureError);
    expect((failure as ServerFailureError).rule).toBe("Endpoints §2; RFC 9110 §15.6");
    expect((failure as ServerFailureError).message).toMatch(
      /^the server failed on "create": 500 .*; a 5xx is never an answer the contract allows$/,
    );
    const reported = await probe.exchange("again", probe.eventRequest(`Bearer ${accessToken}`), {
      serverErrors: "report",
    });
    expect(reported.status).toBe(500);
    expect(probe.evidence.map((evidence) => evidence.response?.status)).toEqual([200, 500, 500]);
  });

  it("never follows a 3xx: it records it, keeping only where it points, and fails it", async ({
    sandbox,
    onTestFinished,
  }) => {
    const target = await sandbox();
    const probe = await frontedProbe(
      target,
      (_method, path) =>
        path.endsWith("/oauth/token")
          ? { status: 307, headers: { location: "http://127.0.0.2:1/steal?secret=x" } }
          : undefined,
      (close) => onTestFinished(close),
    );
    const failure = await probe.obtainToken("ask").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RedirectAnswerError);
    expect((failure as RedirectAnswerError).rule).toBe("Endpoints §1; Authentication rule 2");
    expect(probe.evidence[0]?.response?.headers.location).toBe("http://127.0.0.2:1 (path not shown)");
  });

  it("records a connection that was reset, and throws it as a TransportError", async ({
    sandbox,
    onTestFinished,
  }) => {
    const probe = await frontedProbe(
      await sandbox(),
      () => "reset",
      (close) => onTestFinished(close),
    );
    await expect(probe.obtainToken("ask")).rejects.toBeInstanceOf(TransportError);
    expect(probe.evidence).toHaveLength(1);
    expect(probe.evidence[0]?.response).toBeUndefined();
    expect(probe.evidence[0]?.error).toEqual(expect.any(String));
  });

  it("refuses to show a token too long to hide: undecidable, with none of its characters", async ({
    sandbox,
    onTestFinished,
  }) => {
    const huge = `h${"x1y2z3".repeat(20)}`;
    const probe = await frontedProbe(
      await sandbox(),
      () => ({
        status: 200,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ access_token: huge, token_type: "Bearer", expires_in: 60 }),
      }),
      (close) => onTestFinished(close),
      new Redactor({ tokenChars: 100 }),
    );
    await expect(probe.obtainToken("ask")).rejects.toThrow(
      new UndecidableError(
        '"ask" was answered 200, but the access_token it carries has 121 characters, more than the 100 the harness can hide in its reports; none of it is shown',
      ),
    );
    expect(probe.evidence[0]?.error).toMatch(/^answered 200, not shown: the access_token it carries has 121/);
    expect(JSON.stringify(probe.evidence)).not.toContain("x1y2z3");
  });
});

describe("Probe and the run's limits", () => {
  it("sends nothing once the run's signal has aborted, saying why", async () => {
    const probe = new Probe({
      ...baseOptions(),
      signal: AbortSignal.abort(new Error("the run's deadline of 4.0 s expired")),
    });
    const failure = await probe.obtainToken("ask").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as TransportError).reason).toBe("DEADLINE");
    expect((failure as TransportError).message).toBe("not sent: the run's deadline of 4.0 s expired");
    expect(probe.evidence[0]?.error).toBe("not sent: the run's deadline of 4.0 s expired");
    await expect(probe.sleep(60_000, "waiting out the token")).rejects.toThrow(
      "the run's deadline of 4.0 s expired while waiting out the token",
    );
  });

  it("does not ask an endpoint again after it left two requests unanswered", async () => {
    const unanswered = new UnansweredEndpoints();
    const probe = new Probe({ ...baseOptions(), unanswered });
    const request = probe.tokenRequest();
    unanswered.record(request, false);
    unanswered.record(request, false);
    const failure = await probe.exchange("ask", request).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as TransportError).reason).toBe("UNANSWERED");
    expect((failure as TransportError).message).toMatch(/^not sent: POST \/auth\/oauth\/token gave /);
  });

  it("gives a scratch probe an evidence record of its own", () => {
    const probe = offlineProbe();
    probe.evidence.push({ label: "x", request: { method: "GET", url: "u", headers: {} }, curl: "" });
    expect(probe.scratch().evidence).toEqual([]);
    expect(probe.evidence).toHaveLength(1);
  });

  it("quotes a target's value inert: a string as it is, anything else as JSON", () => {
    const probe = offlineProbe();
    expect(probe.quote("Bearer")).toBe("Bearer");
    expect(probe.quote({ a: [1] })).toBe('{"a":[1]}');
    expect(probe.quote(undefined)).toBe("undefined");
    expect(probe.quote("\u001b[31mred")).not.toContain("\u001b");
  });
});

function baseOptions() {
  return {
    target: {
      tokenUrl: "http://127.0.0.1:9/auth/oauth/token",
      baseUrl: "http://127.0.0.1:9/api",
      clientId: "c",
      clientSecret: new Secret("secret-value"),
      clientAuth: "post" as const,
      connection: DIRECT,
      timeoutMs: 1_000,
      embedded: false,
    },
    redactor: new Redactor(),
    nextEvent: () => ({}),
    eventBreakers: [],
  };
}
