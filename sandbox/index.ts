import type { SandboxOptions } from "./options.ts";
import type { RunningSandbox } from "./server.ts";
import { startSandboxServer } from "./server.ts";

export type { EventStrictness } from "../domain/index.ts";
export { ADMIN_REALM, MAX_OVERLAP_SECONDS } from "./admin-endpoint.ts";
export { checkAdminToken } from "./admin-token.ts";
export type { Clock } from "./clock.ts";
export type { FaultArea, FaultInfo, FaultName } from "./faults.ts";
export { FAULTS, isFaultName } from "./faults.ts";
export type { ClientCredentials, SandboxOptions, SandboxTls } from "./options.ts";
export {
  checkTokenPath,
  DEMO_CLIENT,
  MAX_SANDBOX_LATENCY_MS,
  MAX_SANDBOX_THROUGHPUT,
  SANDBOX_DEFAULTS,
} from "./options.ts";
export type { RotationOptions, RunningSandbox } from "./server.ts";

/** Starts the sandbox API (token endpoint, JWKS and events) on `host:port`; resolves once it listens. */
export function startSandbox(options?: SandboxOptions): Promise<RunningSandbox> {
  return startSandboxServer(options);
}
