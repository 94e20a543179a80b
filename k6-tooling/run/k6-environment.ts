import { k6GoRuntime } from "./k6-go-runtime.ts";

/** Variables k6 needs from the parent process; anything else (secrets the harness does not use) stays out. */
const INHERITED = ["PATH", "HOME", "TMPDIR", "TMP", "TEMP", "LANG", "TZ", "SYSTEMROOT"] as const;

/**
 * The environment k6 runs with: the few inherited variables, the Go runtime's settings, the user's K6_* settings,
 * and the harness's own.
 * Kept small on purpose: k6 copies every variable into every VU's __ENV.
 */
export function k6Environment(
  parent: NodeJS.ProcessEnv,
  harness: Readonly<Record<string, string>>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED) {
    const value = parent[name];
    if (value !== undefined) env[name] = value;
  }
  for (const [name, value] of Object.entries(parent)) {
    if (name.startsWith("K6_") && name !== "K6_BIN" && value !== undefined) env[name] = value;
  }
  return { ...env, ...k6GoRuntime(parent), K6_NO_USAGE_REPORT: "true", ...harness };
}
