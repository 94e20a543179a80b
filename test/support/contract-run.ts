import type { CheckResult } from "../../contracts/index.ts";
import type { ContractRun } from "../../reporting/contract/index.ts";

/** A finished fast-profile contract run on a named target, as the contract report writers receive it. */
export function contractRun(checks: readonly CheckResult[], extra: Partial<ContractRun> = {}): ContractRun {
  return {
    tool: { name: "event-api-harness", version: "1.0.0" },
    suite: "contract (fast)",
    seed: 1,
    startedAt: "2026-01-01T00:00:00.000Z",
    durationMs: 1500,
    target: {
      tokenUrl: "https://a/oauth/token",
      baseUrl: "https://b",
      clientId: "c",
      clientAuth: "post",
      insecure: false,
      embedded: false,
    },
    checks,
    ...extra,
  };
}
