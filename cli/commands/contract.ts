import { defineCommand, delegateTo } from "../command.ts";
import { contractOptions } from "../options/contract-options.ts";

export const contractCommand = defineCommand({
  name: "contract",
  summary: "Check that a target keeps the API contract (token issuance, bearer, events, sliding expiry)",
  usage: "contract [--profile fast|full] [--report-dir DIR] [--only IDS] [target options]",
  description: [
    "Runs the Pactum contract suite under vitest. With no target, the embedded sandbox is started and checked.",
    "The full profile adds the sliding-expiry checks, which wait about expires_in + max(2 s, 10 %).",
    "The property-based checks (area inputs) draw inputs with fast-check, shrink a failure to a minimal input and",
    "report it with the options that replay it (--seed N --only ID --fuzz-runs N --fuzz-replay PATH).",
    "Give the client secret in EVENT_API_CLIENT_SECRET: it and every access token are redacted from all output.",
    "Exit codes: 0 no check failed (warnings allowed), 1 a check failed, 2 usage or configuration error,",
    "3 could not decide (target unreachable, timeouts) and nothing failed.",
    "Every request has one deadline (--timeout) for connect, headers and body; the run has one too (--run-timeout):",
    "when it passes, unfinished checks are ERROR and the reports are still written.",
  ].join("\n"),
  options: contractOptions,
  examples: [
    "event-harness contract",
    "event-harness contract --profile full --sandbox-fault expiry-fixed",
    "event-harness contract --seed 7 --only inputs.valid-accepted --fuzz-runs 25 --fuzz-replay 0:0:3:1",
    "EVENT_API_CLIENT_SECRET=… event-harness contract --auth-url https://auth.example.com --base-url https://api.example.com --client-id my-client",
    "EVENT_API_CLIENT_SECRET=… NODE_EXTRA_CA_CERTS=ca.pem event-harness contract --client-auth basic \\\n    --token-url https://sso.example.com/realms/r/protocol/openid-connect/token --base-url https://api.example.com --client-id my-client",
  ],
  // The pipeline loads vitest, the sandbox and the checks only now: other commands never need them.
  run: delegateTo(async () => (await import("../contract/index.ts")).runContractSuite),
});
