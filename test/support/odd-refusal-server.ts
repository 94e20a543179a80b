import { createServer, type Server } from "node:http";
import { request } from "undici";
import type { RunningSandbox, SandboxOptions } from "../../sandbox/index.ts";
import { startSandbox } from "../../sandbox/index.ts";

/** What a target answers instead of a proper refusal: none of these is a 4xx refusal the RFCs name. */
export const ODD_ANSWERS = {
  "404": { status: 404, headers: { "content-type": "application/json" }, body: '{"Message":"Not found"}' },
  "405": { status: 405, headers: { allow: "GET", "content-type": "text/plain" }, body: "Method Not Allowed" },
  "302": { status: 302, headers: { location: "http://127.0.0.1:9/elsewhere" }, body: "" },
  "403": { status: 403, headers: { "content-type": "application/json" }, body: '{"error":"forbidden"}' },
  "200-html": {
    status: 200,
    headers: { "content-type": "text/html" },
    body: "<!doctype html><title>Sign in</title>",
  },
} as const;
export type OddAnswer = keyof typeof ODD_ANSWERS;

export interface OddRefusalServer {
  /** Auth URL and base URL in front of the sandbox, with the sandbox's paths. */
  readonly authUrl: string;
  readonly tokenUrl: string;
  readonly baseUrl: string;
  /** The sandbox behind, for its clients and its admin functions. */
  readonly sandbox: RunningSandbox;
  close(): Promise<void>;
}

/**
 * A correct sandbox behind a front that passes every answer through, except that each 4xx refusal is replaced by
 * `answer`: a target that accepts every valid request but never refuses the way RFC 6749 §5.2 or RFC 6750 §3.1 say.
 */
export async function startOddRefusalServer(
  answer: OddAnswer,
  options: SandboxOptions = {},
): Promise<OddRefusalServer> {
  const sandbox = await startSandbox({ ...options, port: 0 });
  const origin = new URL(sandbox.authUrl).origin;
  const odd = ODD_ANSWERS[answer];
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
    if (upstream.statusCode >= 400 && upstream.statusCode < 500) {
      res.writeHead(odd.status, odd.headers);
      res.end(odd.body);
      return;
    }
    const passed = Object.fromEntries(
      Object.entries(upstream.headers).filter(([name]) => !["connection", "content-length"].includes(name)),
    );
    res.writeHead(upstream.statusCode, passed);
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  const front = `http://127.0.0.1:${address.port}`;
  const swap = (url: string) => url.replace(origin, front);
  return {
    authUrl: swap(sandbox.authUrl),
    tokenUrl: swap(sandbox.tokenUrl),
    baseUrl: swap(sandbox.baseUrl),
    sandbox,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await sandbox.close();
    },
  };
}
