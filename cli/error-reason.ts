import { HarnessError } from "../core/index.ts";

/** The shortest useful reason a request failed: its error code (ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT …), else the message. */
export function errorReason(error: unknown): string {
  // A harness error's code names its class (response-too-large), while its message says what happened.
  if (error instanceof HarnessError) return error.message;
  return (
    (error as { code?: string } | null | undefined)?.code ??
    (error instanceof Error ? error.message : String(error))
  );
}
