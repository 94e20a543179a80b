import { defineCommand, delegateTo } from "../command.ts";
import { targetOptions } from "../options/target-options.ts";

export const tokenCommand = defineCommand({
  name: "token",
  summary:
    "Print one fresh access token of the configured target on stdout (for scripts and rotation checks)",
  usage: "token [target options]",
  description: [
    "Takes one token with the target's client credentials and prints it, alone, on stdout; everything else goes",
    "to stderr, so EVENT_API_OLD_ACCESS_TOKEN=$(event-harness token …) works. This is the one place the harness",
    "prints a token on purpose: only on stdout, only when asked, never in a report. A target is required (the",
    "embedded sandbox would stop with the command, and its token with it): start `event-harness sandbox` and",
    "point the target options at it. --base-url may be left out when --audience is given (a URI, or none to send",
    "no audience): the base URL is only the default audience here.",
    "Exit codes: 0 token printed, 2 usage or configuration error, 3 no token (endpoint unreachable, not a token",
    "endpoint, credentials refused with both client authentications: said in one sentence, as every run's preflight;",
    "or a token not made of RFC 6750 b64token characters, which is never printed).",
  ].join("\n"),
  options: targetOptions,
  examples: [
    "EVENT_API_CLIENT_SECRET=… event-harness token --auth-url http://127.0.0.1:8080/auth --base-url http://127.0.0.1:8080/api --client-id demo-client",
    "EVENT_API_OLD_ACCESS_TOKEN=$(event-harness token) event-harness verify-rotation …   (target in EVENT_API_* variables)",
  ],
  // The machinery loads only when the command runs.
  run: delegateTo(async () => (await import("../token/index.ts")).printToken),
});
