/** Go runtime variables a user may set for k6 (its collector's pace and a memory guard); nothing else of Go's. */
const GO_RUNTIME = ["GOGC", "GOMEMLIMIT"] as const;

/**
 * The Go runtime settings k6 runs with: the user's own when set, else none (Go's defaults). k6 runs every VU on one
 * Go heap, so the collector's pace is a trade between k6's CPU per event and its memory per VU.
 */
export function k6GoRuntime(parent: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of GO_RUNTIME) {
    const value = parent[name];
    if (value !== undefined && value !== "") env[name] = value;
  }
  return env;
}
