import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { request } from "undici";
import { listenOnLoopback } from "./loopback.ts";

/**
 * A loopback front of a target (the sandbox) whose token endpoint issues huge access tokens: each token the target
 * issues is handed out as `<token>.` followed by random base64url characters up to `tokenChars` (a fresh one every
 * time; as it is when it is that long already), and mapped back to the target's own token when it comes back as a
 * Bearer token, so the API behaves as it did with its own tokens. Only digests of the huge tokens are kept.
 */
export interface HugeTokenFront {
  readonly url: (upstreamUrl: string) => string;
  /** Tokens handed out so far. */
  readonly issued: () => number;
  close(): Promise<void>;
}

const digest = (token: string) => createHash("sha256").update(token).digest("base64");

/** `withoutLifetime`: the token response loses its expires_in too, as a target that cannot be timed. */
export async function startHugeTokenFront(
  upstream: string,
  tokenChars: number,
  options: { readonly withoutLifetime?: boolean } = {},
): Promise<HugeTokenFront> {
  const originals = new Map<string, string>();
  let issued = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          ([name, value]) =>
            typeof value === "string" && !["host", "connection", "content-length"].includes(name),
        ),
      ) as Record<string, string>;
      const bearer = /^Bearer (.+)$/.exec(headers.authorization ?? "")?.[1];
      const original = bearer === undefined ? undefined : originals.get(digest(bearer));
      if (original !== undefined) headers.authorization = `Bearer ${original}`;
      const body = Buffer.concat(chunks);
      request(`${upstream}${req.url ?? "/"}`, {
        method: (req.method ?? "GET") as "POST",
        headers,
        ...(body.length === 0 ? {} : { body }),
      }).then(
        async (answer) => {
          let text = await answer.body.text();
          const type = String(answer.headers["content-type"] ?? "");
          if (answer.statusCode === 200 && type.includes("json")) {
            const json = JSON.parse(text) as Record<string, unknown>;
            if (typeof json.access_token === "string") {
              const padding = Math.max(0, tokenChars - json.access_token.length - 1);
              // Size 0 (or one the token already has) passes the token on as it is, through the same work.
              const huge =
                padding === 0
                  ? json.access_token
                  : `${json.access_token}.${randomBytes(Math.ceil((padding * 3) / 4))
                      .toString("base64url")
                      .slice(0, padding)}`;
              originals.set(digest(huge), json.access_token);
              issued += 1;
              const { expires_in: _, ...rest } = json;
              text = JSON.stringify({ ...(options.withoutLifetime ? rest : json), access_token: huge });
            }
          }
          const copied = Object.fromEntries(
            Object.entries(answer.headers).filter(
              ([name]) => !["connection", "content-length", "transfer-encoding", "keep-alive"].includes(name),
            ),
          ) as Record<string, string>;
          res
            .writeHead(answer.statusCode, { ...copied, "content-length": String(Buffer.byteLength(text)) })
            .end(text);
        },
        () => res.writeHead(502).end(),
      );
    });
  });
  const loopback = await listenOnLoopback(server);
  return {
    url: (upstreamUrl) => `${loopback.url}${new URL(upstreamUrl).pathname}`,
    issued: () => issued,
    close: loopback.close,
  };
}
