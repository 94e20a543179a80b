import type { OptionSpecs, ParsedOptions } from "../command.ts";
import { configOptions } from "./config-options.ts";
import { SANDBOX_OVERLAP_RANGE } from "./rotation-options.ts";
import { targetOptions } from "./target-options.ts";

/** Where sandbox-rotate reads the admin token: never a flag (flags end up in shell history and ps). */
export const ADMIN_TOKEN_ENV = "EVENT_HARNESS_ADMIN_TOKEN";
/** The client's secret as every target command reads it: before the rotation, the current one. */
export const CURRENT_SECRET_ENV = "EVENT_API_CLIENT_SECRET";

/** The sandbox-rotate command's options: the sandbox and client, the rotation, where the new secret goes. */
export const sandboxRotateOptions = {
  "auth-url": {
    type: "string",
    valueName: "URL",
    env: "EVENT_API_AUTH_URL",
    description: "The sandbox's auth URL, as `event-harness sandbox` prints it.",
  },
  "client-id": {
    type: "string",
    valueName: "ID",
    env: "EVENT_API_CLIENT_ID",
    description: "The client whose secret to rotate.",
  },
  overlap: {
    type: "string",
    valueName: "S",
    range: SANDBOX_OVERLAP_RANGE,
    description: `Seconds the old secret stays accepted, 0–${SANDBOX_OVERLAP_RANGE.max} (default 0: refused at once).`,
  },
  revoke: {
    type: "boolean",
    description: "Revoke every token issued before the rotation (moves not-before-policy forward).",
  },
  "secret-file": {
    type: "string",
    valueName: "FILE",
    description: "Write the new secret to FILE (mode 0600).",
  },
  "show-secret": {
    type: "boolean",
    description: "Print the new secret on stdout instead.",
  },
  timeout: targetOptions.timeout,
  ...configOptions,
  insecure: {
    ...targetOptions.insecure,
    description:
      "Do not verify TLS certificates (a throwaway self-signed sandbox only; a warning is printed). For a CA use NODE_EXTRA_CA_CERTS.",
  },
} as const satisfies OptionSpecs;

/** The sandbox-rotate command's option values, as `event-harness sandbox-rotate` parses them. */
export type SandboxRotateOptionValues = ParsedOptions<typeof sandboxRotateOptions>;
