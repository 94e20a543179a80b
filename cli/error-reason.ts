/** The shortest useful reason a request failed: its error code (ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT …), else the message. */
export function errorReason(error: unknown): string {
  return (error as { code?: string }).code ?? (error instanceof Error ? error.message : String(error));
}
