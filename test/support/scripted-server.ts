import { createServer } from "node:http";
import { test as base } from "./fixtures.ts";
import type { Loopback } from "./loopback.ts";
import { listenOnLoopback } from "./loopback.ts";

/** One request as the scripted server received it. */
export interface ScriptedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

/** What the scripted server answers one request with. */
export interface ScriptedAnswer {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface ScriptedServer extends Loopback {
  /** Every request received, in order. */
  readonly requests: ScriptedRequest[];
}

/** A loopback server that answers each request as `answer` says and records what it was sent. */
export async function startScriptedServer(
  answer: (request: ScriptedRequest, index: number) => ScriptedAnswer,
): Promise<ScriptedServer> {
  const requests: ScriptedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(request);
      const { status, headers = {}, body = "" } = answer(request, requests.length - 1);
      res.writeHead(status, headers).end(body);
    });
  });
  const loopback = await listenOnLoopback(server);
  return { ...loopback, requests };
}

/** `it` with `scripted(answer)`: a scripted server on port 0, closed after the test. */
// biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
export const it = base.extend("scripted", async ({}, { onCleanup }) => {
  const started: ScriptedServer[] = [];
  onCleanup(async () => {
    await Promise.all(started.map((server) => server.close()));
  });
  return async (answer: (request: ScriptedRequest, index: number) => ScriptedAnswer) => {
    const server = await startScriptedServer(answer);
    started.push(server);
    return server;
  };
});

/** A JSON answer. */
export function json(status: number, value: unknown): ScriptedAnswer {
  return { status, headers: { "content-type": "application/json" }, body: JSON.stringify(value) };
}
