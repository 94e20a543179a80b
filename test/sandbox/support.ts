import type { Dispatcher } from "undici";
import { request } from "undici";
import type { Clock, SandboxOptions } from "../../sandbox/index.ts";
import { DEMO_CLIENT } from "../../sandbox/index.ts";
import type { SandboxServer } from "../../sandbox/server.ts";
import { startSandboxServer } from "../../sandbox/server.ts";
import { test as base } from "../support/fixtures.ts";

/** A clock the test moves by hand; starts at a real-looking time (2027-01-15). */
export class ManualClock implements Clock {
  #now: number;
  constructor(start = 1_800_000_000_000) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  advance(ms: number): void {
    this.#now += ms;
  }
  advanceSeconds(seconds: number): void {
    this.#now += seconds * 1000;
  }
}

export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  readonly json: unknown;
}

async function answer(response: Dispatcher.ResponseData): Promise<Answer> {
  const text = await response.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, headers: response.headers, text, json };
}

export async function send(
  url: string,
  init: { method?: Dispatcher.HttpMethod; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Answer> {
  return answer(
    await request(url, {
      method: init.method ?? "GET",
      ...(init.headers === undefined ? {} : { headers: init.headers }),
      ...(init.body === undefined ? {} : { body: init.body }),
    }),
  );
}

export const FORM = "application/x-www-form-urlencoded";

export function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/** A token request with the demo client's form credentials, plus any overrides (undefined drops a field). */
export function tokenForm(overrides: Record<string, string | undefined> = {}): string {
  const fields: Record<string, string | undefined> = {
    client_id: DEMO_CLIENT.clientId,
    client_secret: DEMO_CLIENT.clientSecret,
    grant_type: "client_credentials",
    ...overrides,
  };
  return form(
    Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Record<
      string,
      string
    >,
  );
}

export function basic(clientId: string, clientSecret: string): string {
  const encode = (value: string): string => encodeURIComponent(value).replace(/%20/g, "+");
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString("base64")}`;
}

export interface TestSandbox {
  readonly sandbox: SandboxServer;
  readonly clock: ManualClock;
  readonly tokenUrl: string;
  readonly eventsUrl: string;
  /** A fresh token for the demo client (or the given form body). */
  token(body?: string): Promise<string>;
  /** POST /events with a token and a JSON body. */
  postEvent(token: string | undefined, event: unknown, headers?: Record<string, string>): Promise<Answer>;
  getEvent(token: string, ref: string): Promise<Answer>;
}

export async function startTestSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const clock = options.clock instanceof ManualClock ? options.clock : new ManualClock();
  const sandbox = await startSandboxServer({ port: 0, clock, ...options });
  const tokenUrl = `${sandbox.authUrl}/oauth/token`;
  const eventsUrl = `${sandbox.baseUrl}/events`;
  return {
    sandbox,
    clock,
    tokenUrl,
    eventsUrl,
    async token(body = tokenForm()) {
      const got = await send(tokenUrl, { method: "POST", headers: { "content-type": FORM }, body });
      const token = (got.json as { access_token?: unknown } | undefined)?.access_token;
      if (got.status !== 200 || typeof token !== "string")
        throw new Error(`no token: ${got.status} ${got.text}`);
      return token;
    },
    postEvent(token, event, headers = {}) {
      return send(eventsUrl, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
          ...headers,
        },
        body: typeof event === "string" ? event : JSON.stringify(event),
      });
    },
    getEvent(token, ref) {
      return send(`${eventsUrl}/${encodeURIComponent(ref)}`, {
        headers: { authorization: `Bearer ${token}` },
      });
    },
  };
}

let references = 0;

/** A valid event under the production rules, with a reference no other call returns. */
export function validEvent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  references += 1;
  return {
    type: "checkout",
    customer: { email: "ada.lovelace@example.com", firstName: "Ada" },
    channel: { id: "chl-0f8e1c2a-5b0d-4e1f-9a5c-3d2b1a0f9e8d", type: "etrusted" },
    transaction: { reference: `ord-${process.pid}-${references}`, date: "2026-01-02T03:04:05.678Z" },
    system: "event-api-harness-tests",
    systemVersion: "0.1.0",
    ...overrides,
  };
}

/** The parts of a WWW-Authenticate challenge as a record, e.g. { scheme: "Bearer", realm: "…", error: "…" }. */
export function challenge(header: string | string[] | undefined): Record<string, string> | undefined {
  if (typeof header !== "string") return undefined;
  const space = header.indexOf(" ");
  const scheme = space === -1 ? header : header.slice(0, space);
  const params: Record<string, string> = { scheme };
  for (const match of header.slice(space + 1).matchAll(/([a-z_]+)="([^"]*)"/g)) {
    if (match[1] !== undefined && match[2] !== undefined) params[match[1]] = match[2];
  }
  return params;
}

/**
 * The shared fixtures plus `testSandbox(options)`: a sandbox on a ManualClock, started for the test and closed after
 * it, pass or fail.
 */
export const test = base.extend(
  "testSandbox",
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
  async ({}, { onCleanup }) => {
    const started: TestSandbox[] = [];
    onCleanup(async () => {
      await Promise.all(started.map((t) => t.sandbox.close()));
    });
    return async (options: SandboxOptions = {}): Promise<TestSandbox> => {
      const t = await startTestSandbox(options);
      started.push(t);
      return t;
    };
  },
);
