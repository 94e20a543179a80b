import { defineCommand, delegateTo } from "../command.ts";
import { openapiOptions } from "../options/openapi-options.ts";

export const openapiCommand = defineCommand({
  name: "openapi",
  summary: "Write the API's contract as an OpenAPI 3.1 document (JSON)",
  usage: "openapi [--out FILE] [--strictness LEVEL] [--auth-url URL | --token-url URL] [--base-url URL]",
  description: [
    "Writes an OpenAPI 3.1 document of the Event Submission API: the token endpoint (form-encoded request,",
    "token response, RFC 6749 §5.2 errors) with its oauth2 client-credentials security scheme, and",
    "POST /events with bearer security and the responses the harness accepts. Its schemas are generated",
    "from the zod schemas the contract suite checks with, so other tools test against the same contract.",
    "",
    "Without --auth-url/--token-url and --base-url the servers are placeholders ({auth_url}, {base_url},",
    "on example.com). No credential is read or written. The one rule no OpenAPI tool checks, sliding",
    "expiry, is `event-harness contract --profile full`'s.",
  ].join("\n"),
  options: openapiOptions,
  examples: [
    "event-harness openapi > event-api.openapi.json",
    "event-harness openapi --token-url https://sso.example.com/realms/business/protocol/openid-connect/token \\\n    --base-url https://api.example.com --out reports/openapi.json",
    "event-harness openapi --strictness lenient | jq '.components.schemas.Event.required'",
    "event-harness openapi --schema token-response --out token-response.schema.json",
  ],
  // The machinery loads only when the command runs.
  run: delegateTo(async () => (await import("../openapi/index.ts")).writeOpenapi),
});
