import { createServer } from "node:http";
import { type Loopback, listenOnLoopback } from "./loopback.ts";

/**
 * A stand-in for a sandbox's auth server as `sandbox-rotate` talks to it (`POST …/oauth/token`, `POST
 * …/admin/clients/{id}/rotate`), answering what a test tells it to: a credential echoed back in a refusal, a rotation
 * answer no sandbox gives. It records the rotations it was asked for, which tell a test whether one was made.
 */
export interface RotationAdminOptions {
  /** The token endpoint's answer to any form it is sent (`form` is the request body as received). */
  readonly token?: (form: URLSearchParams) => { readonly status: number; readonly body: unknown };
  /** The admin endpoint's answer (`authorization` is the request's header as received). */
  readonly rotate: (request: { readonly clientId: string; readonly authorization: string }) => Promise<{
    readonly status: number;
    readonly body: unknown;
  }>;
}

export interface RotationAdminServer extends Loopback {
  /** `{url}/auth`, as `event-harness sandbox` prints its auth URL. */
  readonly authUrl: string;
  /** How many rotation requests it answered. */
  rotations(): number;
}

/** A well-formed rotation answer, as the sandbox's admin endpoint gives it; tests override one field at a time. */
export function rotationAnswer(
  clientId: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    client_id: clientId,
    client_secret: "rotated-secret-3f9a0c7d5e1b",
    "not-before-policy": 0,
    old_secret_valid_until: null,
    ...overrides,
  };
}

/** Starts one on 127.0.0.1, port 0. */
export async function startRotationAdminServer(options: RotationAdminOptions): Promise<RotationAdminServer> {
  let rotations = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      if (body.length < 100_000) body += chunk;
    });
    req.on("end", async () => {
      const reply = (status: number, answer: unknown) => {
        res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
        res.end(typeof answer === "string" ? answer : JSON.stringify(answer));
      };
      const url = req.url ?? "";
      const rotate = /^\/auth\/admin\/clients\/([^/]+)\/rotate$/.exec(url);
      if (req.method === "POST" && rotate !== null) {
        rotations += 1;
        const answer = await options.rotate({
          clientId: decodeURIComponent(rotate[1] ?? ""),
          authorization: req.headers.authorization ?? "",
        });
        reply(answer.status, answer.body);
        return;
      }
      if (req.method === "POST" && url === "/auth/oauth/token" && options.token !== undefined) {
        const answer = options.token(new URLSearchParams(body));
        reply(answer.status, answer.body);
        return;
      }
      reply(404, { error: "not_found" });
    });
  });
  const loopback = await listenOnLoopback(server);
  return { ...loopback, authUrl: `${loopback.url}/auth`, rotations: () => rotations };
}
