import type { FaultArea } from "../../sandbox/index.ts";
import { FAULTS } from "../../sandbox/index.ts";
import { defineCommand, delegateTo } from "../command.ts";
import { sandboxOptions } from "../options/sandbox-options.ts";

const AREAS: readonly FaultArea[] = ["token", "bearer", "events", "expiry", "transport"];

function faultCatalogue(): string {
  const width = Math.max(...FAULTS.map((fault) => fault.name.length));
  const lines = ["Faults (--fault NAME, repeatable; each breaks exactly one contract rule):"];
  for (const area of AREAS) {
    lines.push(`  ${area}:`);
    for (const fault of FAULTS.filter((candidate) => candidate.area === area)) {
      lines.push(`    ${fault.name.padEnd(width)}  ${fault.description}`);
    }
  }
  return lines.join("\n");
}

export const sandboxCommand = defineCommand({
  name: "sandbox",
  summary: "Run the local sandbox API (token endpoint + events), optionally with faults",
  usage: "sandbox [options]",
  description: [
    "Starts a faithful local implementation of the Event Submission API: POST {auth}/oauth/token",
    "(client credentials, form or HTTP Basic), POST {base}/events and GET {base}/events/{ref} with",
    "bearer tokens that expire after expires_in seconds without use. It runs until Ctrl+C (SIGINT) or",
    "SIGTERM, then closes its connections and exits 0. The demo client's secret is a throwaway",
    "credential of this local sandbox, which is why it may be printed.",
    "",
    "Secrets can be rotated while it runs: POST {auth}/admin/clients/{client_id}/rotate with",
    'Authorization: Bearer <admin token> and {"overlap_seconds": N, "revoke_tokens": true|false}, or use',
    "`event-harness sandbox-rotate`. The admin token is random per start and printed, like the demo secret, because",
    "it only guards this throwaway sandbox; --admin-token or EVENT_HARNESS_ADMIN_TOKEN sets it (then not printed,",
    "except in --json, which hands every credential over).",
    "",
    faultCatalogue(),
  ].join("\n"),
  options: sandboxOptions,
  examples: [
    "event-harness sandbox",
    "event-harness sandbox --port 8080 --expires-in 5",
    "event-harness sandbox --throughput-limit 200",
    "event-harness sandbox --fault expiry-never --fault token-no-cache-headers",
    "event-harness sandbox --fault events-5xx-fraction --fault-rate 0.1 --journal reports/events.ndjson",
    "event-harness sandbox --client shop-1:s3cret --port 0 --json",
    "curl -s -u sandbox-demo:sandbox-demo-secret -d grant_type=client_credentials http://127.0.0.1:PORT/auth/oauth/token",
    "EVENT_HARNESS_ADMIN_TOKEN=$(openssl rand -hex 32) event-harness sandbox --port 8080",
  ],
  // The machinery loads only when the command runs.
  run: delegateTo(async () => (await import("../sandbox/index.ts")).serveSandbox),
});
