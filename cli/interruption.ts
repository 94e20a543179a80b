/** Why a run was stopped, in the words of the signal that stopped it: `interrupted (received SIGTERM)`. */
export function interruption(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  const said = reason instanceof Error ? reason.message : typeof reason === "string" ? reason : "";
  return said === "" || said === "This operation was aborted" ? "interrupted" : `interrupted (${said})`;
}
