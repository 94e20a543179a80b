import { createServer } from "node:http";
import { type Loopback, listenOnLoopback } from "./loopback.ts";

/**
 * An API that works (tokens for the right credentials, events accepted) but writes Markdown and HTML into every
 * answer, the way a hostile or careless API would have it land in a CI job summary: its error bodies carry links,
 * images, autolinks and pipes; its event references and other answers carry links with no URL a reader would spot,
 * raw HTML and a link reference.
 */
export const LINKS_TEXT =
  "![pixel](https://evil.example/p.png) [Release approved](https://evil.example/ok) <https://evil.example/auto> www.evil.example ops@evil.example left|right";
export const MARKUP_TEXT =
  "![pixel](javascript:alert(1)) [Release approved](javascript:alert(2)) <img src=x onerror=alert(3)> <b>bold</b> [approved][evil] left|right **b** ~~s~~ &amp; $x$";
/** Strings no link, image or HTML node of a summary may carry: the target's URLs, markup and link texts. */
export const LIVE_MARKERS = [
  "evil.example",
  "javascript:",
  "onerror",
  "<b>",
  "Release approved",
  "approved]",
];

export interface MarkdownHostileApi extends Loopback {
  readonly authUrl: string;
  readonly baseUrl: string;
}

/** Starts one on 127.0.0.1, port 0, with one client. */
export async function startMarkdownHostileApi(client: {
  readonly clientId: string;
  readonly secret: string;
}): Promise<MarkdownHostileApi> {
  const token = "markdown-api-opaque-token-2c7e9d41";
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      if (body.length < 100_000) body += chunk;
    });
    req.on("end", () => {
      const reply = (status: number, answer: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": "application/json", ...headers });
        res.end(JSON.stringify(answer));
      };
      const path = (req.url ?? "").split("?")[0] ?? "";
      if (path === "/auth/oauth/token") {
        const form = new URLSearchParams(body);
        const basic = (req.headers.authorization ?? "").replace(/^Basic /, "");
        const [id, secret] = Buffer.from(basic, "base64").toString().split(":");
        const good =
          form.get("grant_type") === "client_credentials" &&
          ((form.get("client_id") === client.clientId && form.get("client_secret") === client.secret) ||
            (id === client.clientId && decodeURIComponent(secret ?? "") === client.secret));
        if (good) {
          reply(
            200,
            { access_token: token, token_type: "Bearer", expires_in: 300 },
            { "cache-control": "no-store" },
          );
        } else reply(401, { error: "invalid_client", error_description: LINKS_TEXT });
        return;
      }
      if (req.headers.authorization !== `Bearer ${token}`) {
        reply(401, { Message: MARKUP_TEXT }, { "www-authenticate": 'Bearer error="invalid_token"' });
        return;
      }
      if (req.method === "POST" && path === "/api/events") {
        try {
          JSON.parse(body);
        } catch {
          reply(400, { Message: LINKS_TEXT });
          return;
        }
        reply(202, { Message: `accepted ${MARKUP_TEXT}`, EventRef: `evt-1 ${MARKUP_TEXT}` });
        return;
      }
      reply(404, { Message: LINKS_TEXT });
    });
  });
  const loopback = await listenOnLoopback(server);
  return { ...loopback, authUrl: `${loopback.url}/auth`, baseUrl: `${loopback.url}/api` };
}
