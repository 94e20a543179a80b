import { createServer } from "node:http";
import { listenOnLoopback } from "./loopback.ts";

/**
 * A target whose token endpoint answers the first `honestTokens` requests with a real token (so the preflight
 * passes and k6 starts), then streams a body that never ends, as fast as the client reads; events get a 201.
 */
export interface EndlessTokenTarget {
  readonly url: string;
  /** Token requests answered with the endless body so far. */
  readonly endless: () => number;
  close(): Promise<void>;
}

export async function startEndlessTokenTarget(honestTokens = 1): Promise<EndlessTokenTarget> {
  let tokenRequests = 0;
  let endless = 0;
  const server = createServer((req, res) => {
    req.resume();
    if (req.url?.endsWith("/oauth/token") === true) {
      tokenRequests += 1;
      if (tokenRequests <= honestTokens) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({ access_token: `honest-${tokenRequests}`, token_type: "Bearer", expires_in: 300 }),
        );
        return;
      }
      endless += 1;
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"access_token":"');
      const chunk = Buffer.alloc(64 * 1024, "a");
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on("drain", pump);
      pump();
      return;
    }
    res.writeHead(201, { "content-type": "application/json" });
    res.end("{}");
  });
  const loopback = await listenOnLoopback(server);
  return {
    url: loopback.url,
    endless: () => endless,
    close: loopback.close,
  };
}
