import { createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { connect } from "node:net";

/** A loopback HTTP proxy for tests: it tunnels CONNECT requests and counts the tunnels it opened. */
export interface CountingProxy {
  readonly url: string;
  /** CONNECT requests it forwarded, by the host:port asked for. */
  readonly forwarded: Map<string, number>;
  /** Proxy-Authorization headers it saw (tests check they never reach an output). */
  readonly authorizations: string[];
  total(): number;
  close(): Promise<void>;
}

/**
 * Starts the proxy on 127.0.0.1:0. Every name in `hosts` is resolved to 127.0.0.1 by the proxy itself, so a client
 * that reaches such a name at all must have come through the proxy (the name resolves nowhere else).
 */
export async function startCountingProxy(hosts: readonly string[]): Promise<CountingProxy> {
  const forwarded = new Map<string, number>();
  const authorizations: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((_req, res) => {
    // Only tunnels: absolute-form requests would mean a client sent a target's request in the clear.
    res.writeHead(405).end();
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  server.on("connect", (req, client: Socket, head: Buffer) => {
    const target = req.url ?? "";
    const colon = target.lastIndexOf(":");
    const host = target.slice(0, colon).replace(/^\[|\]$/g, "");
    const port = Number(target.slice(colon + 1));
    const auth = req.headers["proxy-authorization"];
    if (auth !== undefined) authorizations.push(auth);
    if (!hosts.includes(host) || !Number.isInteger(port)) {
      client.end("HTTP/1.1 403 Forbidden\r\n\r\n");
      return;
    }
    forwarded.set(target, (forwarded.get(target) ?? 0) + 1);
    const upstream = connect({ host: "127.0.0.1", port }, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.once("close", () => sockets.delete(upstream));
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen({ host: "127.0.0.1", port: 0 }, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    forwarded,
    authorizations,
    total: () => [...forwarded.values()].reduce((sum, n) => sum + n, 0),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
