import { createServer } from "node:http";
import { listenOnLoopback } from "./loopback.ts";

/** One request a trap received, as it arrived: what a test checks no secret was in. */
export interface TrappedRequest {
  readonly method: string;
  readonly url: string;
  readonly authorization: string | undefined;
  readonly body: string;
}

/**
 * A token endpoint nobody named, which must never be reached: it records every request (so a test can show that
 * none came, or that a secret did) and refuses each with 401 invalid_client.
 */
export interface TokenTrap {
  readonly url: string;
  /** The token endpoint's URL on the trap. */
  readonly tokenUrl: string;
  readonly requests: readonly TrappedRequest[];
  close(): Promise<void>;
}

export async function startTokenTrap(): Promise<TokenTrap> {
  const requests: TrappedRequest[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      requests.push({
        method: req.method ?? "",
        url: req.url ?? "",
        authorization: req.headers.authorization,
        body,
      });
      res
        .writeHead(401, { "content-type": "application/json" })
        .end('{"error":"invalid_client","error_description":"a trap: nobody named this endpoint"}');
    });
  });
  const loopback = await listenOnLoopback(server);
  return {
    url: loopback.url,
    tokenUrl: `${loopback.url}/oauth/token`,
    requests,
    close: () => loopback.close(),
  };
}
