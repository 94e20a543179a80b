import { defineCommand, delegateTo } from "../command.ts";
import { rotationOptions } from "../options/rotation-options.ts";

export const verifyRotationCommand = defineCommand({
  name: "verify-rotation",
  summary: "Check a target right after its client secret was rotated",
  usage:
    "verify-rotation [--expect-old refused|accepted] [--expect-old-tokens valid|revoked] [--old-secret-file FILE] [--old-token-file FILE] [target options]",
  description: [
    "The new secret goes in EVENT_API_CLIENT_SECRET; optionally the old one in EVENT_API_OLD_CLIENT_SECRET (or",
    "--old-secret-file) and a token obtained before the rotation in EVENT_API_OLD_ACCESS_TOKEN (or --old-token-file).",
    "Checks that the new secret yields a working token and an accepted event, and compares what happens to the old",
    "secret and the old token with what you expect (FAIL when reality differs; without an expectation it is only",
    "reported). An expectation needs its input (--expect-old the old secret, --expect-old-tokens the old token), and",
    "the old secret must differ from the new one: else exit 2, before any request.",
    "With no target, the embedded sandbox is started, a token is taken with its secret, the secret is rotated",
    "(--sandbox-overlap, --sandbox-revoke), and the rotation is verified.",
    "Exit codes as for contract: 0 passed, 1 failed, 2 usage, 3 could not decide.",
  ].join("\n"),
  options: rotationOptions,
  examples: [
    "event-harness verify-rotation --expect-old refused --expect-old-tokens valid",
    "EVENT_API_CLIENT_SECRET=new EVENT_API_OLD_CLIENT_SECRET=old event-harness verify-rotation --expect-old refused \\\n    --auth-url https://auth.example.com --base-url https://api.example.com --client-id my-client",
    'EVENT_API_CLIENT_SECRET="$(cat new.secret)" event-harness verify-rotation --old-secret-file new.secret.old-secret \\\n    --old-token-file new.secret.old-token --expect-old refused --expect-old-tokens valid --auth-url … --base-url … --client-id …',
  ],
  // The pipeline loads the checks, the sandbox and the generators only now.
  run: delegateTo(async () => (await import("../rotation/index.ts")).verifyRotation),
});
