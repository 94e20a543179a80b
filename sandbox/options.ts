import type { EventStrictness } from "../domain/index.ts";
import { EVENT_STRICTNESS } from "../domain/index.ts";
import { checkAdminToken, randomAdminToken } from "./admin-token.ts";
import type { Clock } from "./clock.ts";
import { systemClock } from "./clock.ts";
import type { FaultName } from "./faults.ts";
import { isFaultName } from "./faults.ts";

export interface ClientCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

export interface SandboxOptions {
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** TCP port; default 0 (an ephemeral port, read it from the URLs). */
  port?: number;
  /** Sliding token lifetime in seconds, reported as expires_in; default 300. */
  expiresIn?: number;
  /** Hard cap on a token's age (its JWT `exp`), in seconds; default 86,400, far above expiresIn on purpose. */
  maxTokenAgeSeconds?: number;
  /** Registered clients; default one demo client (a throwaway credential of the local sandbox). */
  clients?: readonly ClientCredentials[];
  faults?: readonly FaultName[];
  /** Fraction of valid events that `events-5xx-fraction` fails; default 0.2. */
  faultRate?: number;
  /** Seeds the random draw of `events-500-one-in-seven`, so a run can be repeated; default 1. */
  faultSeed?: number;
  /** Time source for token issue and expiry; default the system clock. */
  clock?: Clock;
  /** When set, every accepted event is appended to this file as one NDJSON line. */
  journalPath?: string;
  /** Largest request body accepted, in bytes; larger ones get 413; default 65,536. */
  maxBodyBytes?: number;
  /** Accepted events kept in memory for GET (the oldest are dropped first); default 100,000. */
  maxEvents?: number;
  /** Which event fields are required; default "production" (the real service's rules). */
  eventStrictness?: EventStrictness;
  /** Bearer credential of the admin endpoint (16–512 token characters); default a random one per start. */
  adminToken?: string;
  /**
   * Path of the token endpoint; default `/auth/oauth/token` (the spec's `{auth_url}/oauth/token`). Set e.g.
   * `/realms/harness/protocol/openid-connect/token` to model a Keycloak-style deployment.
   */
  tokenPath?: string;
  /** Serve HTTPS with this PEM key and certificate instead of plain HTTP. */
  tls?: SandboxTls;
  /** Milliseconds added before every answer, to show a latency regression against a baseline; default 0. */
  latencyMs?: number;
  /**
   * A capacity the sandbox holds: it serves at most this many events a second (POST /events), queueing the ones that
   * arrive faster, so latency grows past it as a real server's does; default none (as fast as it can).
   */
  throughputLimit?: number;
  /** With `throughputLimit`: an event that would wait longer than this in the queue is refused (503); default 1,000. */
  queueLimitMs?: number;
}

export interface SandboxTls {
  readonly key: string | Buffer;
  readonly cert: string | Buffer;
}

/** The options with every default filled in and every value checked. */
export interface SandboxConfig {
  readonly host: string;
  readonly port: number;
  readonly expiresIn: number;
  readonly maxTokenAgeSeconds: number;
  readonly clients: readonly ClientCredentials[];
  readonly faults: ReadonlySet<FaultName>;
  readonly faultRate: number;
  readonly faultSeed: number;
  readonly clock: Clock;
  readonly journalPath: string | undefined;
  readonly maxBodyBytes: number;
  readonly maxEvents: number;
  readonly eventStrictness: EventStrictness;
  readonly adminToken: string;
  readonly tokenPath: string;
  readonly tls: SandboxTls | undefined;
  readonly latencyMs: number;
  /** Events a second the sandbox serves at most; undefined: no limit. */
  readonly throughputLimit: number | undefined;
  readonly queueLimitMs: number;
}

/** The demo client; its secret is a throwaway credential of the local sandbox and may be printed. */
export const DEMO_CLIENT: ClientCredentials = Object.freeze({
  clientId: "sandbox-demo",
  clientSecret: "sandbox-demo-secret",
});

export const SANDBOX_DEFAULTS = Object.freeze({
  host: "127.0.0.1",
  port: 0,
  expiresIn: 300,
  maxTokenAgeSeconds: 86_400,
  faultRate: 0.2,
  faultSeed: 1,
  maxBodyBytes: 64 * 1024,
  maxEvents: 100_000,
  eventStrictness: "production" as EventStrictness,
  tokenPath: "/auth/oauth/token",
  latencyMs: 0,
  queueLimitMs: 1000,
});

/** The highest throughput limit, events a second: far above what the sandbox itself serves. */
export const MAX_SANDBOX_THROUGHPUT = 1_000_000;

/** The largest added latency: beyond it a request would meet the harness's own deadlines rather than a slow target. */
export const MAX_SANDBOX_LATENCY_MS = 10_000;

/** Paths the sandbox serves itself: a token path may not shadow them. */
const RESERVED_PREFIXES = ["/api/", "/auth/.well-known/", "/auth/admin/"];

export function checkTokenPath(path: string): string {
  // A dot segment is removed by every client's URL parser, so the path clients reach would not be this one.
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(path) || /\/\.{1,2}(?=\/|$)/.test(path)) {
    throw new RangeError(`tokenPath must be an absolute path of plain segments, got ${JSON.stringify(path)}`);
  }
  if (RESERVED_PREFIXES.some((prefix) => `${path}/`.startsWith(prefix))) {
    throw new RangeError(`tokenPath ${path} would shadow another sandbox endpoint`);
  }
  return path;
}

function wholeNumber(
  name: string,
  value: number | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  const resolved = value ?? fallback;
  if (!Number.isSafeInteger(resolved) || resolved < min || resolved > max) {
    throw new RangeError(`${name} must be a whole number from ${min} to ${max}, got ${resolved}`);
  }
  return resolved;
}

function checkClients(clients: readonly ClientCredentials[]): readonly ClientCredentials[] {
  if (clients.length === 0) throw new RangeError("clients must list at least one client");
  const seen = new Set<string>();
  for (const { clientId, clientSecret } of clients) {
    if (typeof clientId !== "string" || clientId.length === 0)
      throw new TypeError("a clientId must be non-empty");
    if (typeof clientSecret !== "string" || clientSecret.length === 0) {
      throw new TypeError(`the clientSecret of ${clientId} must be non-empty`);
    }
    if (seen.has(clientId)) throw new RangeError(`clientId ${clientId} is listed twice`);
    seen.add(clientId);
  }
  return Object.freeze(
    clients.map(({ clientId, clientSecret }) => Object.freeze({ clientId, clientSecret })),
  );
}

/** Fills in defaults and rejects impossible values with a RangeError/TypeError naming the option. */
export function resolveOptions(options: SandboxOptions): SandboxConfig {
  const expiresIn = wholeNumber("expiresIn", options.expiresIn, SANDBOX_DEFAULTS.expiresIn, 1, 31_536_000);
  const maxTokenAgeSeconds = wholeNumber(
    "maxTokenAgeSeconds",
    options.maxTokenAgeSeconds,
    SANDBOX_DEFAULTS.maxTokenAgeSeconds,
    expiresIn,
    315_360_000,
  );
  const faultRate = options.faultRate ?? SANDBOX_DEFAULTS.faultRate;
  if (!Number.isFinite(faultRate) || faultRate < 0 || faultRate > 1) {
    throw new RangeError(`faultRate must be a number from 0 to 1, got ${faultRate}`);
  }
  for (const fault of options.faults ?? []) {
    if (!isFaultName(fault)) throw new RangeError(`unknown fault ${String(fault)}`);
  }
  const eventStrictness = options.eventStrictness ?? SANDBOX_DEFAULTS.eventStrictness;
  if (!EVENT_STRICTNESS.includes(eventStrictness)) {
    throw new RangeError(`eventStrictness must be one of ${EVENT_STRICTNESS.join(", ")}`);
  }
  return {
    host: options.host ?? SANDBOX_DEFAULTS.host,
    port: wholeNumber("port", options.port, SANDBOX_DEFAULTS.port, 0, 65_535),
    expiresIn,
    maxTokenAgeSeconds,
    clients: checkClients(options.clients ?? [DEMO_CLIENT]),
    faults: new Set(options.faults ?? []),
    faultRate,
    faultSeed: wholeNumber("faultSeed", options.faultSeed, SANDBOX_DEFAULTS.faultSeed, 0, 0xffff_ffff),
    clock: options.clock ?? systemClock,
    journalPath: options.journalPath,
    maxBodyBytes: wholeNumber(
      "maxBodyBytes",
      options.maxBodyBytes,
      SANDBOX_DEFAULTS.maxBodyBytes,
      1,
      64 * 1024 * 1024,
    ),
    maxEvents: wholeNumber("maxEvents", options.maxEvents, SANDBOX_DEFAULTS.maxEvents, 1, 10_000_000),
    eventStrictness,
    adminToken: options.adminToken === undefined ? randomAdminToken() : checkAdminToken(options.adminToken),
    tokenPath: checkTokenPath(options.tokenPath ?? SANDBOX_DEFAULTS.tokenPath),
    tls: options.tls,
    latencyMs: wholeNumber(
      "latencyMs",
      options.latencyMs,
      SANDBOX_DEFAULTS.latencyMs,
      0,
      MAX_SANDBOX_LATENCY_MS,
    ),
    throughputLimit:
      options.throughputLimit === undefined
        ? undefined
        : wholeNumber("throughputLimit", options.throughputLimit, 1, 1, MAX_SANDBOX_THROUGHPUT),
    queueLimitMs: wholeNumber(
      "queueLimitMs",
      options.queueLimitMs,
      SANDBOX_DEFAULTS.queueLimitMs,
      0,
      MAX_SANDBOX_LATENCY_MS,
    ),
  };
}
