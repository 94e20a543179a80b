import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { createServer } from "node:http";
import type { Server as HttpsServer } from "node:https";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { createAdminRotateEndpoint } from "./admin-endpoint.ts";
import { AdminTokenGuard } from "./admin-token.ts";
import { BearerAuthenticator } from "./bearer-auth.ts";
import { BearerChallenger } from "./bearer-challenge.ts";
import { ClientRegistry } from "./client-registry.ts";
import { createDiscoveryEndpoint } from "./discovery-endpoint.ts";
import { DEFAULT_MAX_EVENT_BYTES, EventStore } from "./event-store.ts";
import { createEventsEndpoint } from "./events-endpoint.ts";
import type { FaultName } from "./faults.ts";
import { replyJson } from "./http-reply.ts";
import { Journal } from "./journal.ts";
import { createJwksEndpoint } from "./jwks-endpoint.ts";
import type { ClientCredentials, SandboxConfig, SandboxOptions } from "./options.ts";
import { resolveOptions } from "./options.ts";
import { Router } from "./router.ts";
import { rotateClientSecret } from "./secret-rotation.ts";
import { ThroughputLimit } from "./throughput-limit.ts";
import { createTokenEndpoint } from "./token-endpoint.ts";
import { TokenIssuer } from "./token-issuer.ts";
import { generateSigningKeys, TokenSigner } from "./token-signer.ts";
import type { ExpiryPolicy } from "./token-store.ts";
import { TokenStore } from "./token-store.ts";

export interface RunningSandbox {
  /** Base of the authorisation server (JWKS, admin); the token endpoint is `{authUrl}/oauth/token` by default. */
  readonly authUrl: string;
  /** The token endpoint: `{authUrl}/oauth/token`, or the `tokenPath` the sandbox was started with. */
  readonly tokenUrl: string;
  /** Base of the API; events go to `{baseUrl}/events`. */
  readonly baseUrl: string;
  readonly jwksUrl: string;
  /** The clients' current credentials (a rotation changes a secret). */
  readonly clients: readonly ClientCredentials[];
  readonly expiresIn: number;
  readonly faults: readonly FaultName[];
  /**
   * Bearer credential of `POST {authUrl}/admin/clients/{clientId}/rotate`: a throwaway credential of this local
   * sandbox, random per start unless `SandboxOptions.adminToken` set it.
   */
  readonly adminToken: string;
  /** Issues a token for a registered client as the token endpoint would, without an HTTP round trip. */
  issueToken(clientId: string): Promise<string>;
  /**
   * Gives a client a new random secret, as an operator rotating credentials would. The old secret stays accepted
   * for `overlapSeconds` of clock time (default 0); `revokeTokens` refuses every token issued before the rotation.
   */
  rotateSecret(clientId: string, options?: RotationOptions): Promise<ClientCredentials>;
  /** Stops accepting, closes keep-alive connections, cuts requests held by `slow`, flushes the journal. */
  close(): Promise<void>;
}

export interface RotationOptions {
  readonly overlapSeconds?: number;
  readonly revokeTokens?: boolean;
}

/** Internal counters for tests; not part of the public surface. */
export interface SandboxStats {
  /** Tokens the store holds (expired ones are dropped lazily as the clock moves). */
  readonly liveTokens: number;
  readonly storedEvents: number;
  /** Handler errors answered with 500 that no fault asked for: always a bug. */
  readonly internalErrors: number;
  /** Requests whose headers have arrived and whose response is neither sent nor cut (held by `slow` included). */
  readonly openRequests: number;
  /** Accepted connections not yet destroyed, idle keep-alive ones included: close() destroys the idle ones at once. */
  readonly openConnections: number;
  /** Events refused (503) because the throughput limit's queue was full. */
  readonly refusedOverLimit: number;
}

export interface SandboxServer extends RunningSandbox {
  stats(): SandboxStats;
}

/** The `slow` fault's delay before any answer. */
export const SLOW_DELAY_MS = 30_000;
/** close() waits this long for in-flight answers before it cuts their connections. */
export const CLOSE_GRACE_MS = 2_000;
/** The path of `POST {baseUrl}/events`, the requests a throughput limit counts. */
const EVENTS_PATH = "/api/events";
const OVERLOADED = JSON.stringify({ Message: "Service unavailable: too many events, try again later" });

/** Live tokens held at most (about 200 MB of ES256 tokens); only `expiry-never` or a grant storm reaches it. */
const MAX_LIVE_TOKENS = 250_000;

function expiryPolicy(faults: ReadonlySet<FaultName>): ExpiryPolicy {
  if (faults.has("expiry-never")) return "never";
  if (faults.has("expiry-fixed")) return "fixed";
  if (faults.has("expiry-early")) return "early";
  return "sliding";
}

function origin(scheme: "http" | "https", host: string, port: number): string {
  return `${scheme}://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen({ host, port }, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Wires the stores, the authenticator and the endpoints behind one router. */
function createApp(
  config: SandboxConfig,
  signer: TokenSigner,
  urls: { readonly origin: string; readonly baseUrl: string },
  journal: Journal | undefined,
  onInternalError: (error: unknown) => void,
): { router: Router; tokens: TokenStore; events: EventStore; clients: ClientRegistry; issuer: TokenIssuer } {
  const clients = new ClientRegistry(config.clients, config.clock);
  const tokens = new TokenStore({
    clock: config.clock,
    expiresIn: config.expiresIn,
    policy: expiryPolicy(config.faults),
    maxTokens: MAX_LIVE_TOKENS,
  });
  const events = new EventStore({ maxEvents: config.maxEvents, maxBytes: DEFAULT_MAX_EVENT_BYTES, journal });
  const authenticator = new BearerAuthenticator({
    faults: config.faults,
    tokens,
    signer,
    clients,
    clock: config.clock,
  });
  const eventsEndpoint = createEventsEndpoint({
    config,
    authenticator,
    challenger: new BearerChallenger(config.faults),
    events,
  });
  const issuer = new TokenIssuer({ config, signer, tokens, clients });
  const { baseUrl } = urls;
  const tokenEndpoint = createTokenEndpoint({ config, clients, issuer, baseUrl });
  const discovery = createDiscoveryEndpoint({
    issuer: signer.issuer,
    tokenEndpoint: `${urls.origin}${config.tokenPath}`,
    jwksUri: `${signer.issuer}/.well-known/jwks.json`,
    basicAllowed: !config.faults.has("token-no-basic-auth"),
    formCredentialsAllowed: !config.faults.has("token-basic-only"),
  });
  const adminRotate = createAdminRotateEndpoint({
    guard: new AdminTokenGuard(config.adminToken),
    clients,
    rotate: (clientId, request) =>
      rotateClientSecret({ clients, tokens, clock: config.clock }, clientId, request),
  });
  const router = new Router(
    [
      { path: config.tokenPath, methods: { POST: tokenEndpoint } },
      { path: "/auth/.well-known/jwks.json", methods: { GET: createJwksEndpoint(signer) } },
      { path: "/auth/.well-known/openid-configuration", methods: { GET: discovery } },
      { path: "/.well-known/oauth-authorization-server/auth", methods: { GET: discovery } },
      { path: "/auth/admin/clients", param: true, suffix: "/rotate", methods: { POST: adminRotate } },
      { path: "/api/events", methods: { POST: eventsEndpoint.post } },
      ...(config.faults.has("events-no-read-route")
        ? []
        : [{ path: "/api/events", param: true, methods: { GET: eventsEndpoint.get } }]),
    ],
    onInternalError,
  );
  return { router, tokens, events, clients, issuer };
}

/** Starts the sandbox; resolves once it listens. Same as the public `startSandbox`, plus `stats()` for tests. */
export async function startSandboxServer(options: SandboxOptions = {}): Promise<SandboxServer> {
  const config = resolveOptions(options);
  const keys = await generateSigningKeys();
  const journal = config.journalPath === undefined ? undefined : await Journal.open(config.journalPath);
  let internalErrors = 0;
  let openRequests = 0;
  let refusedOverLimit = 0;
  // Real time, not the token clock: the queue is served by real timers.
  const limit =
    config.throughputLimit === undefined
      ? undefined
      : new ThroughputLimit(config.throughputLimit, config.queueLimitMs);
  const slow = config.faults.has("slow");
  const reset = config.faults.has("reset");
  /** Requests the `slow` fault or the added latency is holding back, so close() can cut them at once. */
  const held = new Map<NodeJS.Timeout, IncomingMessage>();
  let app: ReturnType<typeof createApp> | undefined;

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    openRequests += 1;
    res.once("close", () => {
      openRequests -= 1;
    });
    if (reset) {
      req.socket.resetAndDestroy();
      return;
    }
    const router = app?.router;
    // Unreachable: the app is built synchronously as soon as listen() reports the port.
    if (router === undefined) return void res.writeHead(503).end();
    let delayMs = slow ? SLOW_DELAY_MS : config.latencyMs;
    if (limit !== undefined && req.method === "POST" && (req.url ?? "").split("?")[0] === EVENTS_PATH) {
      const waitMs = limit.admit(performance.now());
      if (waitMs === undefined) {
        refusedOverLimit += 1;
        replyJson(res, 503, OVERLOADED, { "retry-after": "1" });
        return;
      }
      delayMs += waitMs;
    }
    if (delayMs > 0) {
      const timer = setTimeout(() => {
        held.delete(timer);
        router.handle(req, res);
      }, delayMs);
      timer.unref();
      held.set(timer, req);
      // A client that gives up frees its place at once.
      res.once("close", () => {
        clearTimeout(timer);
        held.delete(timer);
      });
      return;
    }
    router.handle(req, res);
  };
  const server: Server | HttpsServer = config.tls
    ? createHttpsServer({ ...config.tls }, handle)
    : createServer(handle);
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });

  let port: number;
  try {
    port = await listen(server, config.host, config.port);
  } catch (error) {
    await journal?.close();
    throw error;
  }
  const base = origin(config.tls ? "https" : "http", config.host, port);
  const authUrl = `${base}/auth`;
  const baseUrl = `${base}/api`;
  const signer = new TokenSigner(keys, { issuer: authUrl, audience: baseUrl });
  app = createApp(config, signer, { origin: base, baseUrl }, journal, () => {
    internalErrors += 1;
  });
  const { tokens, events, clients, issuer } = app;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      for (const [timer, req] of held) {
        clearTimeout(timer);
        req.socket.destroy();
      }
      held.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Connections busy at close become idle when their answer is sent: close them as soon as they are.
      const sweeper = setInterval(() => server.closeIdleConnections(), 10);
      const deadline = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
      server.closeIdleConnections();
      await closed;
      clearInterval(sweeper);
      clearTimeout(deadline);
      await journal?.close();
    })();
    return closing;
  };

  return {
    authUrl,
    tokenUrl: `${base}${config.tokenPath}`,
    baseUrl,
    jwksUrl: `${authUrl}/.well-known/jwks.json`,
    get clients() {
      return clients.credentials();
    },
    expiresIn: config.expiresIn,
    faults: [...config.faults],
    adminToken: config.adminToken,
    async issueToken(clientId) {
      if (!clients.has(clientId)) throw new RangeError(`unknown client ${clientId}`);
      return issuer.issue(clientId);
    },
    async rotateSecret(clientId, rotation = {}) {
      const { clientSecret } = rotateClientSecret({ clients, tokens, clock: config.clock }, clientId, {
        overlapSeconds: rotation.overlapSeconds ?? 0,
        revokeTokens: rotation.revokeTokens === true,
      });
      return { clientId, clientSecret };
    },
    close,
    stats: () => ({
      liveTokens: tokens.size,
      storedEvents: events.size,
      internalErrors,
      openRequests,
      openConnections: [...sockets].filter((socket) => !socket.destroyed).length,
      refusedOverLimit,
    }),
  };
}
