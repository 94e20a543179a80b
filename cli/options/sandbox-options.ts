import { MAX_SANDBOX_LATENCY_MS, MAX_SANDBOX_THROUGHPUT, SANDBOX_DEFAULTS } from "../../sandbox/index.ts";
import type { OptionSpecs, ParsedOptions } from "../command.ts";

/** The sandbox command's options: where it listens, its tokens, clients and faults, TLS and how it reports itself. */
export const sandboxOptions = {
  host: {
    type: "string",
    valueName: "HOST",
    description: `Interface to listen on (default ${SANDBOX_DEFAULTS.host}).`,
  },
  port: {
    type: "string",
    valueName: "N",
    range: { min: 0, max: 65_535 },
    description: "TCP port, 0 for any free one (default 0).",
  },
  "expires-in": {
    type: "string",
    valueName: "S",
    range: { min: 1, max: 31_536_000 },
    description: `Token lifetime in seconds, counted from last use (default ${SANDBOX_DEFAULTS.expiresIn}).`,
  },
  latency: {
    type: "string",
    valueName: "MS",
    range: { min: 0, max: MAX_SANDBOX_LATENCY_MS },
    description: `Milliseconds added before every answer, to show a latency regression (default 0, at most ${MAX_SANDBOX_LATENCY_MS}).`,
  },
  "throughput-limit": {
    type: "string",
    valueName: "N",
    range: { min: 1, max: MAX_SANDBOX_THROUGHPUT },
    description:
      "Serve at most N events a second, queueing the ones that arrive faster (latency then grows as a real server's does): a target whose capacity is known (default none).",
  },
  "queue-limit": {
    type: "string",
    valueName: "MS",
    range: { min: 0, max: MAX_SANDBOX_LATENCY_MS },
    description: `With --throughput-limit: refuse (503) an event that would wait longer than MS in the queue (default ${SANDBOX_DEFAULTS.queueLimitMs}).`,
  },
  client: {
    type: "string",
    multiple: true,
    valueName: "ID:SECRET",
    description: "A client to register instead of the demo client.",
  },
  fault: {
    type: "string",
    multiple: true,
    valueName: "NAME",
    description: "Switch a fault on (see Faults above).",
  },
  "fault-seed": {
    type: "string",
    valueName: "N",
    range: { min: 0, max: 0xffff_ffff },
    description: `Seed of events-500-one-in-seven's random draw (default ${SANDBOX_DEFAULTS.faultSeed}).`,
  },
  "fault-rate": {
    type: "string",
    valueName: "R",
    range: { min: 0, max: 1 },
    description: `Fraction of valid events events-5xx-fraction fails, 0–1 (default ${SANDBOX_DEFAULTS.faultRate}).`,
  },
  journal: {
    type: "string",
    valueName: "FILE",
    description: "Append every accepted event to FILE as NDJSON.",
  },
  strictness: {
    type: "string",
    valueName: "LEVEL",
    description: "Required event fields: production, complete or lenient (default production).",
  },
  "admin-token": {
    type: "string",
    valueName: "TOKEN",
    env: "EVENT_HARNESS_ADMIN_TOKEN",
    description: "Bearer credential of the admin endpoint, 16–512 token characters (default: random).",
  },
  "token-path": {
    type: "string",
    valueName: "PATH",
    description:
      "Serve the token endpoint at this path instead of /auth/oauth/token (e.g. /realms/r/protocol/openid-connect/token).",
  },
  "tls-cert": {
    type: "string",
    valueName: "FILE",
    description: "Serve HTTPS with this PEM certificate (needs --tls-key).",
  },
  "tls-key": {
    type: "string",
    valueName: "FILE",
    description: "The PEM private key of --tls-cert.",
  },
  json: {
    type: "boolean",
    description:
      'Print one JSON line {"auth_url","token_url","base_url","clients","admin_token"} and nothing else on stdout.',
  },
} as const satisfies OptionSpecs;

/** The option values, as the command parses them. */
export type SandboxOptionValues = ParsedOptions<typeof sandboxOptions>;
