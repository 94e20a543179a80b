import { createServer } from "node:http";
import { preflight } from "../../../cli/load/load-preflight.ts";
import { CannotRunError } from "../../../core/index.ts";
import { DIRECT } from "../../../transport/connection/index.ts";
import type { Target } from "../../../transport/index.ts";
import { Redactor, Secret } from "../../../transport/index.ts";
import { it as base, describe, expect } from "../../support/fixtures.ts";
import { listenOnLoopback } from "../../support/loopback.ts";

interface TokenServerOptions {
  /** expires_in per client id. */
  readonly lifetimes: Readonly<Record<string, number>>;
  /** Refuse client credentials sent as form fields, as a server that takes only HTTP Basic does. */
  readonly basicOnly?: boolean;
}

interface TokenServer {
  readonly target: Target;
  /** How each token request authenticated, in order: `post <client>` or `basic <client>`. */
  readonly requests: string[];
}

const tokenOf = (clientId: string) => `issued-token-for-${clientId}-0123456789abcdef`;

/** A token endpoint and an events API on loopback, closed after the test. */
// biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
const it = base.extend("tokenServer", async ({}, { onCleanup }) => {
  return async (options: TokenServerOptions): Promise<TokenServer> => {
    const requests: string[] = [];
    const server = await listenOnLoopback(
      createServer((req, res) => {
        let body = "";
        req.setEncoding("utf8").on("data", (chunk: string) => {
          body += chunk;
        });
        req.on("end", () => {
          if (req.url !== "/oauth/token") {
            res.writeHead(401, { "content-type": "application/json" }).end('{"error":"unauthorized"}');
            return;
          }
          const header = req.headers.authorization;
          const form = new URLSearchParams(body);
          const clientId = header?.startsWith("Basic ")
            ? decodeURIComponent(Buffer.from(header.slice(6), "base64").toString().split(":")[0] ?? "")
            : (form.get("client_id") ?? "");
          requests.push(`${header === undefined ? "post" : "basic"} ${clientId}`);
          const lifetime = options.lifetimes[clientId];
          if (lifetime === undefined || (options.basicOnly === true && header === undefined)) {
            res.writeHead(401, { "content-type": "application/json" }).end('{"error":"invalid_client"}');
            return;
          }
          res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
          res.end(
            JSON.stringify({ access_token: tokenOf(clientId), token_type: "Bearer", expires_in: lifetime }),
          );
        });
      }),
    );
    onCleanup(() => server.close());
    return {
      requests,
      target: {
        tokenUrl: `${server.url}/oauth/token`,
        baseUrl: `${server.url}/api`,
        clientId: "one",
        clientSecret: new Secret("secret-one"),
        audience: `${server.url}/api`,
        clientAuth: "post",
        timeoutMs: 5000,
        connection: DIRECT,
        embedded: false,
      },
    };
  };
});

const signal = new AbortController().signal;
const clients = (...ids: string[]) => ids.map((id) => ({ clientId: id, clientSecret: `secret-${id}` }));

async function refusal(attempt: Promise<unknown>): Promise<CannotRunError> {
  const error: unknown = await attempt.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(CannotRunError);
  return error as CannotRunError;
}

describe("load preflight", () => {
  it("takes one token per client, learns expires_in and hides every token", async ({ tokenServer }) => {
    const { target, requests } = await tokenServer({ lifetimes: { one: 120, two: 120 } });
    const redactor = new Redactor();
    const result = await preflight(target, clients("one", "two"), redactor, signal);
    expect(result).toEqual({ expiresInSeconds: 120, clientAuth: "post" });
    expect(requests).toEqual(["post one", "post two"]);
    const said = redactor.redact(`k6 said ${tokenOf("one")} and ${tokenOf("two")}`);
    expect(said).toBe("k6 said <ACCESS_TOKEN> and <ACCESS_TOKEN>");
  });

  it("refuses clients whose tokens have different lifetimes", async ({ tokenServer }) => {
    const { target } = await tokenServer({ lifetimes: { one: 120, two: 60 } });
    const error = await refusal(preflight(target, clients("one", "two"), new Redactor(), signal));
    expect(error.message).toBe("the clients' tokens have different expires_in: 120, 60");
  });

  it("fails fast on a client whose secret is refused, after the ones before it", async ({ tokenServer }) => {
    const { target } = await tokenServer({ lifetimes: { one: 120 } });
    const error = await refusal(preflight(target, clients("one", "two"), new Redactor(), signal));
    expect(error.message).toContain("client two");
    expect(error.message).not.toContain("secret-two");
  });

  it("switches every client to the client authentication that worked for the first", async ({
    tokenServer,
  }) => {
    const { target, requests } = await tokenServer({ lifetimes: { one: 90, two: 90 }, basicOnly: true });
    const result = await preflight(target, clients("one", "two"), new Redactor(), signal);
    expect(result).toEqual({ expiresInSeconds: 90, clientAuth: "basic", refusedClientAuth: "post" });
    // The second client goes straight to the method that worked.
    expect(requests).toEqual(["post one", "basic one", "basic two"]);
  });

  it("stops before k6 on a token the reports could not hide, naming the client inertly", async ({
    tokenServer,
  }) => {
    const hostile = "evil\u001b[2Jclient";
    const { target } = await tokenServer({ lifetimes: { [hostile]: 120 } });
    const withUser = { ...target, tokenUrl: target.tokenUrl.replace("http://", "http://user:pw@") };
    const error = await refusal(
      preflight(withUser, clients(hostile), new Redactor({ tokenChars: 20 }), signal),
    );
    expect(error.message).toMatch(/^the token endpoint http:\/\/127\.0\.0\.1:\d+\/oauth\/token gave client /);
    expect(error.message).toContain("an access token that has ");
    expect(error.message).not.toContain("\u001b");
    expect(error.message).not.toContain("pw@");
    expect(error.message).not.toContain(tokenOf(hostile));
  });
});
