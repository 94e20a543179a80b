import type { OptionSpecs, ParsedOptions } from "../command.ts";
import { acceptedOption } from "./gate-options.ts";
import { targetOptions } from "./target-options.ts";

/**
 * Seconds an old secret may stay accepted: the sandbox admin endpoint's own bound (MAX_OVERLAP_SECONDS, which a test
 * keeps equal), declared here so --help loads no sandbox and a typo never reaches it.
 */
export const SANDBOX_OVERLAP_RANGE = { min: 0, max: 86_400 } as const;

export const OLD_SECRET_ENV = "EVENT_API_OLD_CLIENT_SECRET";
export const OLD_TOKEN_ENV = "EVENT_API_OLD_ACCESS_TOKEN";

/** Where verify-rotation reads what was valid before the rotation, besides the environment. */
export const rotationInputOptions = {
  "old-secret-file": {
    type: "string",
    valueName: "FILE",
    description: `Read the secret from before the rotation from FILE (instead of ${OLD_SECRET_ENV}).`,
  },
  "old-token-file": {
    type: "string",
    valueName: "FILE",
    description: `Read a token obtained before the rotation from FILE (instead of ${OLD_TOKEN_ENV}).`,
  },
} as const satisfies OptionSpecs;

/** The verify-rotation command's options: the expectations, the embedded sandbox's rotation, the old secret and token. */
export const rotationOptions = {
  "expect-old": {
    type: "string",
    valueName: "WHAT",
    description: "refused or accepted: what the old secret should get.",
  },
  "expect-old-tokens": {
    type: "string",
    valueName: "WHAT",
    description: "valid or revoked: what tokens issued before the rotation should be.",
  },
  "report-dir": {
    type: "string",
    valueName: "DIR",
    description: "Where the reports go: a new or empty directory (default reports/rotation/<time>).",
  },
  "sandbox-overlap": {
    type: "string",
    valueName: "S",
    range: SANDBOX_OVERLAP_RANGE,
    description: "Embedded sandbox: seconds the old secret stays accepted (default 0).",
  },
  "sandbox-revoke": {
    type: "boolean",
    description: "Embedded sandbox: revoke tokens issued before the rotation.",
  },
  ...rotationInputOptions,
  ...acceptedOption,
  ...targetOptions,
} as const satisfies OptionSpecs;

/** The verify-rotation command's option values, as `event-harness verify-rotation` parses them. */
export type RotationOptionValues = ParsedOptions<typeof rotationOptions>;
