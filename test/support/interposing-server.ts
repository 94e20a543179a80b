import type { IncomingHttpHeaders } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { request } from "undici";

/**
 * What the interposer does with one request: answer it itself (after `delayMs`, as a gateway whose backend hangs on
 * the input), reset the connection, pass it on after `forwardAfterMs`, or pass it on at once.
 */
export type Interposition =
  | {
      readonly status: number;
      readonly headers?: Record<string, string>;
      readonly body?: string;
      readonly delayMs?: number;
    }
  | { readonly forwardAfterMs: number }
  | "reset"
  | undefined;

export interface InterposingServer {
  /** The upstream's URL with this server's origin: `http://127.0.0.1:<port>/…`. */
  readonly url: (upstreamUrl: string) => string;
  close(): Promise<void>;
}

/**
 * A loopback server in front of `upstream` (an origin): every request is forwarded as it came, unless `decide`
 * answers it (a 429, a flaky 500) or resets it. For targets that misbehave only sometimes.
 */
export async function startInterposingServer(
  upstream: string,
  decide: (method: string, path: string, headers: IncomingHttpHeaders, body: string) => Interposition,
): Promise<InterposingServer> {
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const later = (ms: number, then: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      then();
    }, ms);
    timers.add(timer);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const decision = decide(req.method ?? "GET", req.url ?? "/", req.headers, body);
      if (decision === "reset") {
        req.socket.destroy();
        return;
      }
      if (decision !== undefined && "forwardAfterMs" in decision) {
        later(decision.forwardAfterMs, () => forward(body));
        return;
      }
      if (decision !== undefined) {
        const text = decision.body ?? "";
        later(decision.delayMs ?? 0, () =>
          res
            .writeHead(decision.status, {
              ...decision.headers,
              "content-length": String(Buffer.byteLength(text)),
            })
            .end(text),
        );
        return;
      }
      forward(body);
    });
    const forward = (body: string) => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          ([name]) => !["host", "connection", "content-length"].includes(name),
        ),
      ) as Record<string, string>;
      request(`${upstream}${req.url ?? "/"}`, {
        method: (req.method ?? "GET") as "POST",
        headers,
        ...(body === "" ? {} : { body }),
      }).then(
        async (answer) => {
          const text = await answer.body.text();
          const copied = Object.fromEntries(
            Object.entries(answer.headers).filter(
              ([name]) => !["connection", "content-length", "transfer-encoding"].includes(name),
            ),
          ) as Record<string, string>;
          // One write with a length: a chunked answer in pieces waits on delayed ACKs.
          res
            .writeHead(answer.statusCode, { ...copied, "content-length": String(Buffer.byteLength(text)) })
            .end(text);
        },
        () => res.writeHead(502).end(),
      );
    };
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (upstreamUrl) => `${origin}${new URL(upstreamUrl).pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
