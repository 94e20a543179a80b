import { createServer, type Server } from "node:http";
import { request } from "undici";
import type { RunningSandbox, SandboxOptions } from "../../sandbox/index.ts";
import { startSandbox } from "../../sandbox/index.ts";
import { test } from "./fixtures.ts";
import { listenOnLoopback } from "./loopback.ts";

/** What an introspecting gateway says of any inactive token (RFC 7662 gives it no reason to tell them apart). */
export const INTROSPECTION_DESCRIPTION = "not active (expired, revoked or unknown)";

/** A Kerberos-style token68 with padding, as IIS sends it first. */
const NEGOTIATE_TOKEN68 = "YIIBhgYGKwYBBQUCoIIBejCCAXagDTALBgkqhkiG9xIBAgKhBAMCAXai+/9=";

/**
 * How the front rewrites the API's `WWW-Authenticate` on a 401: each entry gives the header lines sent instead of
 * the sandbox's one Bearer challenge. The first four keep a correct Bearer challenge among others (RFC 9110 §11.6.1
 * allows several, gateways and IIS put Basic or Negotiate first); the last ones carry none, or one without its error.
 */
export const CHALLENGE_REWRITES = {
  /** Two header lines: a Basic challenge, then the API's own. */
  "basic-then-bearer-lines": (bearer: string) => ['Basic realm="api"', bearer],
  /** One line, the challenges joined by a comma, as a proxy folds them. */
  "basic-then-bearer-joined": (bearer: string) => [`Basic realm="api", ${bearer}`],
  /** A token68 challenge, then a Basic one whose quoted realm holds a comma and an escaped quote, then Bearer. */
  "negotiate-basic-bearer": (bearer: string) => [
    `Negotiate ${NEGOTIATE_TOKEN68}, Basic realm="api, \\"v2\\"", charset="UTF-8"`,
    bearer,
  ],
  /** The introspecting gateway: the Bearer challenge's error_description names every reason at once. */
  introspection: (bearer: string) => [
    bearer.replace(/error_description="(?:[^"\\]|\\.)*"/, `error_description="${INTROSPECTION_DESCRIPTION}"`),
  ],
  /** Basic only, its realm quoting a Bearer challenge: text inside quotes is no challenge. */
  "bearer-only-quoted": () => ['Basic realm="Bearer error=\\"invalid_token\\""'],
  /** Basic first, then a Bearer challenge without its error code. */
  "basic-then-bearer-without-error": () => ['Basic realm="api"', 'Bearer realm="api"'],
} as const satisfies Record<string, (bearer: string) => string[]>;
export type ChallengeRewrite = keyof typeof CHALLENGE_REWRITES;

export interface ChallengeFront {
  /** Auth URL and base URL in front of the sandbox, with the sandbox's paths. */
  readonly authUrl: string;
  readonly tokenUrl: string;
  readonly baseUrl: string;
  /** The sandbox behind, for its clients and its admin functions. */
  readonly sandbox: RunningSandbox;
  close(): Promise<void>;
}

/**
 * A correct sandbox behind a front that passes every answer through, except that the events API's 401 gets the
 * challenges `rewrite` names instead of its own: the API is as correct as ever, only its challenges are put the way
 * real gateways put them.
 */
export async function startChallengeFront(
  rewrite: ChallengeRewrite,
  options: SandboxOptions = {},
): Promise<ChallengeFront> {
  const sandbox = await startSandbox({ ...options, port: 0 });
  const origin = new URL(sandbox.authUrl).origin;
  const apiPath = new URL(sandbox.baseUrl).pathname;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(
        (entry): entry is [string, string] => typeof entry[1] === "string" && entry[0] !== "host",
      ),
    );
    const upstream = await request(`${origin}${req.url ?? "/"}`, {
      method: (req.method ?? "GET") as "POST",
      headers,
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    });
    const body = await upstream.body.text();
    const passed: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(upstream.headers)) {
      if (value !== undefined && !["connection", "content-length"].includes(name)) passed[name] = value;
    }
    const challenge = passed["www-authenticate"];
    if (upstream.statusCode === 401 && typeof challenge === "string" && req.url?.startsWith(apiPath)) {
      passed["www-authenticate"] = CHALLENGE_REWRITES[rewrite](challenge);
    }
    res.writeHead(upstream.statusCode, passed);
    res.end(body);
  });
  const loopback = await listenOnLoopback(server);
  const swap = (url: string) => url.replace(origin, loopback.url);
  return {
    authUrl: swap(sandbox.authUrl),
    tokenUrl: swap(sandbox.tokenUrl),
    baseUrl: swap(sandbox.baseUrl),
    sandbox,
    async close() {
      await loopback.close();
      await sandbox.close();
    },
  };
}

/** The shared fixtures plus `challengeFront(rewrite, options?)`: a front started for the test, closed after it. */
// biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
export const challengeFrontTest = test.extend("challengeFront", async ({}, { onCleanup }) => {
  const fronts: ChallengeFront[] = [];
  onCleanup(async () => {
    await Promise.all(fronts.map((front) => front.close()));
  });
  return async (rewrite: ChallengeRewrite, options: SandboxOptions = {}): Promise<ChallengeFront> => {
    const front = await startChallengeFront(rewrite, options);
    fronts.push(front);
    return front;
  };
});
