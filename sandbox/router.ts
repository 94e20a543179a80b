import type { IncomingMessage, ServerResponse } from "node:http";
import { messageBody, replyJson } from "./http-reply.ts";

/** Handles one request; `param` is the decoded last path segment of a parameterised route, else "". */
export type Handler = (req: IncomingMessage, res: ServerResponse, param: string) => void | Promise<void>;

export type Method = "GET" | "POST";

export interface Route {
  /** The exact path, or for a parameterised route the prefix before `/{param}`. */
  readonly path: string;
  readonly param?: boolean;
  /** For a parameterised route, a fixed tail after the parameter: `prefix/{param}/suffix` when given. */
  readonly suffix?: string;
  readonly methods: Readonly<Partial<Record<Method, Handler>>>;
}

interface CompiledRoute {
  readonly handlers: ReadonlyMap<string, Handler>;
  /** RFC 9110 §15.5.6: a 405 must list the methods the resource supports. */
  readonly allow: string;
}

const NOT_FOUND = messageBody("No resource at this path");
const METHOD_NOT_ALLOWED = messageBody("Method not allowed on this resource");
const INTERNAL_ERROR = messageBody("Internal server error");

function compile(route: Route): CompiledRoute {
  const handlers = new Map<string, Handler>(Object.entries(route.methods) as [string, Handler][]);
  const get = handlers.get("GET");
  // HEAD is GET without a body; Node drops the body for HEAD responses itself.
  if (get !== undefined) handlers.set("HEAD", get);
  return { handlers, allow: [...handlers.keys()].join(", ") };
}

/** Dispatches by exact path (one Map lookup on the hot path), then by `prefix/{param}`. */
export class Router {
  readonly #exact = new Map<string, CompiledRoute>();
  readonly #prefixed: { readonly prefix: string; readonly suffix: string; readonly route: CompiledRoute }[] =
    [];
  readonly #onError: (error: unknown) => void;

  constructor(routes: readonly Route[], onError: (error: unknown) => void) {
    for (const route of routes) {
      if (route.param) {
        this.#prefixed.push({ prefix: `${route.path}/`, suffix: route.suffix ?? "", route: compile(route) });
      } else this.#exact.set(route.path, compile(route));
    }
    this.#onError = onError;
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const path = query === -1 ? url : url.slice(0, query);
    let route = this.#exact.get(path);
    let param = "";
    if (route === undefined) {
      for (const candidate of this.#prefixed) {
        if (!path.startsWith(candidate.prefix) || !path.endsWith(candidate.suffix)) continue;
        const rest = path.slice(candidate.prefix.length, path.length - candidate.suffix.length);
        if (rest.length === 0 || rest.includes("/")) continue;
        try {
          param = decodeURIComponent(rest);
        } catch {
          continue;
        }
        route = candidate.route;
        break;
      }
    }
    if (route === undefined) {
      replyJson(res, 404, NOT_FOUND);
      return;
    }
    const handler = route.handlers.get(req.method ?? "");
    if (handler === undefined) {
      replyJson(res, 405, METHOD_NOT_ALLOWED, { allow: route.allow });
      return;
    }
    try {
      const pending = handler(req, res, param);
      if (pending !== undefined) pending.catch((error: unknown) => this.#fail(res, error));
    } catch (error) {
      this.#fail(res, error);
    }
  }

  /** A handler bug: answer 500 if still possible and report it, never crash the process. */
  #fail(res: ServerResponse, error: unknown): void {
    this.#onError(error);
    if (!res.headersSent) replyJson(res, 500, INTERNAL_ERROR, { connection: "close" });
    else res.destroy();
  }
}
