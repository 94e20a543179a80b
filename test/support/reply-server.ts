import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";

/** What a client read of one response. */
export interface RepliedAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/**
 * Serves one request on a loopback port 0 with `write` (a sandbox reply helper under test), reads the answer as a
 * client does, and closes the server, pass or fail.
 */
export async function replyAnswer(
  write: (res: ServerResponse, req: IncomingMessage) => void,
  method: "GET" | "POST" | "HEAD" = "GET",
): Promise<RepliedAnswer> {
  const server = createServer((req, res) => write(res, req));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const response = await request(`http://127.0.0.1:${port}/`, { method });
    const text = await response.body.text();
    return { status: response.statusCode, headers: response.headers, text };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
