/** Marks a verdict reached against the embedded sandbox, so a demo is never read as the user's API passing. */
export const EMBEDDED_SANDBOX_NOTE = "embedded sandbox — not your API";
