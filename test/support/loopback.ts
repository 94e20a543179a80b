import type { Server, Socket } from "node:net";

/** A test server listening on 127.0.0.1. */
export interface Loopback {
  readonly url: string;
  /** Closes the server and drops every connection it still holds, so no test waits on a hung client. */
  close(): Promise<void>;
}

/** Listens on 127.0.0.1, port 0, keeping track of connections for close(). */
export async function listenOnLoopback(server: Server): Promise<Loopback> {
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return {
    url: `http://127.0.0.1:${address.port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
