import { createServer, type Server } from "node:http";
import { listenOnLoopback } from "./loopback.ts";

/**
 * A target that answers, but writes back what it was sent: the client secret in an encoding a real server might
 * use, the bearer token it got, and text of its own choosing (escape sequences, CI workflow commands). It issues
 * one opaque 55-character token (and a refresh token) to the right credentials; its events endpoint refuses
 * everything with 400.
 */
export interface EchoServerOptions {
  readonly clientId: string;
  readonly secret: string;
  /** What the server writes first in every refusal's body (and in an `x-echo` header, when a header can carry it). */
  readonly echo: string;
  /**
   * How a refusal writes back the form and the Authorization header it got (token refusals then echo the header
   * too); as sent when absent.
   */
  readonly encodeEcho?: (sent: string) => string;
}

export interface EchoServer {
  readonly url: string;
  /** The access token it issues (opaque, 55 characters). */
  readonly token: string;
  close(): Promise<void>;
}

export const ECHO_TOKEN = `opaque-${"5f0c9a7e3b21d4c8".repeat(3)}`;
/** The refresh token it issues alongside: a credential too, which evidence must not show. */
export const ECHO_REFRESH_TOKEN = `refresh-${"9d41b7e2c60a8f35".repeat(3)}`;

function base64Url(text: string): string {
  return Buffer.from(text).toString("base64url");
}

/** The secret in every form a server may echo it: the forms a redactor must recognise. */
export function secretEncodings(clientId: string, secret: string): Record<string, string> {
  const json = JSON.stringify(secret).slice(1, -1);
  const hex = (code: number, upper: boolean) =>
    code.toString(16).padStart(4, "0")[upper ? "toUpperCase" : "toLowerCase"]();
  const units = Array.from({ length: secret.length }, (_, i) => secret.charCodeAt(i));
  const bytes = [...Buffer.from(secret)];
  const basic = `${clientId}:${secret}`;
  const formBasic = `${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`;
  return {
    raw: secret,
    json,
    // PHP's json_encode: slashes escaped, anything beyond ASCII as \uXXXX.
    php: json.replaceAll("/", "\\/").replace(/[^\x20-\x7e]/g, (c) => `\\u${hex(c.charCodeAt(0), false)}`),
    unicodeUpper: units.map((code) => `\\u${hex(code, true)}`).join(""),
    unicodeMixed: units.map((code, i) => `\\u${hex(code, i % 2 === 0)}`).join(""),
    uri: encodeURIComponent(secret),
    form: new URLSearchParams({ v: secret }).toString().slice(2),
    percentLower: bytes.map((b) => `%${b.toString(16).padStart(2, "0")}`).join(""),
    basic: Buffer.from(basic).toString("base64"),
    basicUrlSafe: base64Url(basic),
    basicForm: Buffer.from(formBasic).toString("base64"),
    basicFormUrlSafe: base64Url(formBasic),
  };
}

/** Reads client_id and client_secret from a form body or a Basic header, as a token endpoint would. */
function credentials(body: string, authorization: string | undefined): { id?: string; secret?: string } {
  if (authorization?.startsWith("Basic ")) {
    const decoded = Buffer.from(authorization.slice(6), "base64").toString();
    const colon = decoded.indexOf(":");
    return {
      id: decodeURIComponent(decoded.slice(0, colon).replaceAll("+", " ")),
      secret: decodeURIComponent(decoded.slice(colon + 1).replaceAll("+", " ")),
    };
  }
  const form = new URLSearchParams(body);
  const id = form.get("client_id");
  const secret = form.get("client_secret");
  return { ...(id === null ? {} : { id }), ...(secret === null ? {} : { secret }) };
}

/** A header can carry only visible Latin-1 (and tab): the echo goes there when it fits. */
const HEADER_SAFE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Starts one on 127.0.0.1, port 0; every request is read whole (bounded) and answered at once. */
export async function startEchoServer(options: EchoServerOptions): Promise<EchoServer> {
  const encode = options.encodeEcho ?? ((sent: string) => sent);
  const server: Server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      if (body.length < 1_000_000) body += chunk;
    });
    req.on("end", () => {
      const headers: Record<string, string> = { "content-type": "text/plain; charset=utf-8" };
      if (HEADER_SAFE.test(options.echo)) headers["x-echo"] = options.echo;
      if (!(req.url ?? "").endsWith("/events")) {
        const given = credentials(body, req.headers.authorization);
        const form = new URLSearchParams(body);
        if (
          given.id === options.clientId &&
          given.secret === options.secret &&
          form.get("grant_type") === "client_credentials"
        ) {
          res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
          res.end(
            JSON.stringify({
              access_token: ECHO_TOKEN,
              token_type: "Bearer",
              expires_in: 3600,
              refresh_token: ECHO_REFRESH_TOKEN,
            }),
          );
          return;
        }
        res.writeHead(401, headers);
        const authorization =
          options.encodeEcho === undefined ? "" : ` authorization=${encode(req.headers.authorization ?? "")}`;
        res.end(`${options.echo} {"error":"invalid_client"}${authorization} sent=${encode(body)}`);
        return;
      }
      res.writeHead(400, headers);
      res.end(
        `${options.echo} authorization=${encode(req.headers.authorization ?? "")} sent=${encode(body)}`,
      );
    });
  });
  const loopback = await listenOnLoopback(server);
  return {
    url: loopback.url,
    token: ECHO_TOKEN,
    close: loopback.close,
  };
}
