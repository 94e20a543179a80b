import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { eventSchemas } from "../../domain/index.ts";

/** Request bodies are read up to this, then the rest discarded: the harness sends small forms and events. */
const MAX_BODY_BYTES = 64 * 1024;

export interface RequestBody {
  readonly text: string;
  readonly tooLarge: boolean;
}

export function readBody(req: IncomingMessage): Promise<RequestBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on("end", () =>
      resolve({ text: Buffer.concat(chunks).toString("utf8"), tooLarge: size > MAX_BODY_BYTES }),
    );
    req.on("error", reject);
  });
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** Why a bearer token is refused (jose's error code, say), or undefined when it is good. */
export type VerifyBearer = (token: string) => Promise<string | undefined>;

export interface BearerEventsApiOptions {
  /** How the server behind this API checks its tokens: a JWT verified with jose, or its own record of them. */
  readonly verify: VerifyBearer;
  /** Whether the API has `GET /events/{ref}` (many have none). */
  readonly readBack?: boolean;
}

/**
 * The events API of the test servers that stand for real ones: a bearer token checked by `verify` (401 with a Bearer
 * challenge), the production event schema, unique transaction references and an EventRef for each accepted event.
 * The handler gets the request's path below the API's base URL (`/events`).
 */
export function bearerEventsApi(
  options: BearerEventsApiOptions,
): (req: IncomingMessage, res: ServerResponse, path: string) => void {
  const validate = eventSchemas.production;
  const references = new Set<string>();
  const stored = new Map<string, unknown>();

  async function handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const body = await readBody(req);
    // RFC 6750 §2.1 and RFC 9110 §11.1: "Bearer" in any letter case, then one or more spaces and the token.
    const match = /^Bearer +([^\s]+)$/i.exec(req.headers.authorization ?? "");
    const challenge = 'Bearer realm="events"';
    if (match?.[1] === undefined) {
      sendJson(res, 401, { Message: "Unauthorized" }, { "www-authenticate": challenge });
      return;
    }
    const refused = await options.verify(match[1]);
    if (refused !== undefined) {
      sendJson(
        res,
        401,
        { Message: "Unauthorized" },
        { "www-authenticate": `${challenge}, error="invalid_token", error_description="${refused}"` },
      );
      return;
    }
    const read = /^\/events\/([^/]+)$/.exec(path);
    if (req.method === "GET" && read?.[1] !== undefined && options.readBack === true) {
      const event = stored.get(decodeURIComponent(read[1]));
      if (event === undefined) sendJson(res, 404, { Message: "No such event" });
      else sendJson(res, 200, event);
      return;
    }
    if (req.method !== "POST" || path !== "/events") {
      sendJson(res, 404, { Message: "Not found" });
      return;
    }
    if (body.tooLarge) {
      sendJson(res, 413, { Message: "Request body too large" });
      return;
    }
    if (!/^application\/json\b/i.test(req.headers["content-type"] ?? "")) {
      sendJson(res, 415, { Message: "Send the event as application/json" });
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(body.text);
    } catch {
      sendJson(res, 400, { Message: "The body is not valid JSON" });
      return;
    }
    const result = validate.safeParse(value);
    if (!result.success) {
      sendJson(res, 400, {
        Message: "Invalid event",
        Errors: result.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message })),
      });
      return;
    }
    const reference = result.data.transaction.reference;
    if (references.has(reference)) {
      sendJson(res, 409, { Message: "This transaction reference was already used" });
      return;
    }
    references.add(reference);
    const id = `evt-${randomUUID()}`;
    stored.set(id, value);
    sendJson(res, 202, { Message: `Your event (\`${id}\`) was accepted for processing.`, EventRef: id });
  }

  return (req, res, path) => {
    handle(req, res, path).catch(() => sendJson(res, 500, { Message: "Internal server error" }));
  };
}
