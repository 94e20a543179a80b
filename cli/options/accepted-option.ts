import type { OptionSpecs } from "../command.ts";

/** The ledger of accepted deviations, for every command that judges checks or load gates. */
export const acceptedOption = {
  accepted: {
    type: "string",
    valueName: "FILE",
    env: "EVENT_HARNESS_ACCEPTED",
    description:
      "Ledger of accepted deviations (JSON: accepted: [{id, reason, ticket, expires, environment, target}]): a " +
      "failing accepted check or load gate is WAIVED until its expires date, then fails again; an entry bound to an " +
      "environment or target applies only there.",
  },
} as const satisfies OptionSpecs;
