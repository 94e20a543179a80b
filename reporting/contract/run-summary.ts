import type { CheckResult, CheckStatus, Profile } from "../../contracts/index.ts";
import { CHECK_STATUSES } from "../../contracts/index.ts";
import { displayProxy, proxyFor } from "../../transport/connection/index.ts";
import type { EntryOutcome } from "../accepted/entry-outcome.ts";

export { INSECURE_WARNING } from "../../transport/connection/index.ts";

import type { ClientAuth, Target } from "../../transport/index.ts";
import { tokenEndpointFacts } from "../../transport/index.ts";

/**
 * One word for the whole run: an interrupted run is aborted whatever its checks say; otherwise failed beats undecided
 * beats passed, so an ERROR never hides a FAIL.
 */
export type Verdict = "passed" | "failed" | "undecided" | "aborted";

export interface ContractRun {
  readonly tool: { readonly name: string; readonly version: string };
  /** What ran, as reports name it: "contract (fast)", "contract (full)", "verify-rotation". */
  readonly suite: string;
  readonly profile?: Profile;
  /** Seeds the generated probe events; rerun with the same seed to send the same bodies. */
  readonly seed: number;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly target: {
    readonly tokenUrl: string;
    /** The issuer whose metadata named the token endpoint (--issuer). */
    readonly issuer?: string;
    /** The token endpoint's origin, when the issuer's metadata put it on another origin than the issuer's. */
    readonly tokenEndpointOrigin?: string;
    readonly baseUrl: string;
    readonly clientId: string;
    /** Absent when no audience was sent (--audience none). */
    readonly audience?: string;
    readonly clientAuth: ClientAuth;
    readonly scope?: string;
    /** The RFC 8707 resource sent with every token request (--resource). */
    readonly resource?: string;
    /** The names of the further token parameters (--token-param); their values may be secret-ish and stay out. */
    readonly tokenParams?: readonly string[];
    /** TLS certificates were not verified (--insecure): every report says so. */
    readonly insecure: boolean;
    /** The proxy requests went through (user info removed), when one applied. */
    readonly proxy?: string;
    /** The extra CA file trusted (NODE_EXTRA_CA_CERTS), when one was named. */
    readonly caFile?: string;
    readonly embedded: boolean;
  };
  readonly checks: readonly CheckResult[];
  /** The ledger of accepted deviations the run was judged with, as the user named it. */
  readonly acceptedFile?: string;
  /** What became of each of its contract entries. */
  readonly accepted?: readonly EntryOutcome[];
  /** Why the run was stopped before its end (`interrupted (received SIGINT)`); absent when it ran to the end. */
  readonly aborted?: string;
  /** Why the target could not be tested at all (the preflight's diagnosis); the checks were then not run. */
  readonly couldNotTest?: string;
  /** What the user set over the harness's own choice or the config file, names only (`--token-param NAME`). */
  readonly overrides?: readonly string[];
  /**
   * The command line that repeats this run where it ran (`npx --no-install event-harness contract --profile full
   * --config harness.json --environment staging --token-url …`), to which a counterexample's replay options are added.
   */
  readonly rerun?: string;
}

/** The command a counterexample's replay options go after: the run's own, or the bare command. */
export function rerunOf(run: Pick<ContractRun, "rerun">): string {
  return run.rerun ?? "npx --no-install event-harness contract";
}

/** What reports say about the target: where it is and as whom, never the secret. */
export function describeTarget(target: Target): ContractRun["target"] {
  const {
    tokenUrl,
    baseUrl,
    clientId,
    audience,
    clientAuth,
    scope,
    resource,
    tokenParams,
    connection,
    embedded,
  } = target;
  const proxy = proxyFor(tokenUrl, connection.proxy) ?? proxyFor(baseUrl, connection.proxy);
  return {
    ...tokenEndpointFacts(target),
    baseUrl,
    clientId,
    ...(audience === undefined ? {} : { audience }),
    clientAuth,
    ...(scope === undefined ? {} : { scope }),
    ...(resource === undefined ? {} : { resource }),
    ...(tokenParams === undefined ? {} : { tokenParams: Object.keys(tokenParams) }),
    insecure: connection.insecure,
    ...(proxy === undefined ? {} : { proxy: displayProxy(proxy) }),
    ...(connection.caFile === undefined ? {} : { caFile: connection.caFile }),
    embedded,
  };
}

export function countByStatus(checks: readonly CheckResult[]): Record<CheckStatus, number> {
  const counts = Object.fromEntries(CHECK_STATUSES.map((status) => [status, 0])) as Record<
    CheckStatus,
    number
  >;
  for (const check of checks) counts[check.status] += 1;
  return counts;
}

/** The one place a contract run's verdict is decided; every report and the exit code read it. WAIVED never fails. */
export function verdictOf(run: Pick<ContractRun, "checks" | "aborted" | "couldNotTest">): Verdict {
  if (run.aborted !== undefined) return "aborted";
  if (run.couldNotTest !== undefined) return "undecided";
  const counts = countByStatus(run.checks);
  if (counts.FAIL > 0) return "failed";
  if (counts.ERROR > 0) return "undecided";
  return "passed";
}

/** How many failed or undecided check ids a count names before it says how many more there are. */
const NAMED_IDS = 5;

/** The ids of the checks of a status: `lifetime.sliding, token.issued and 3 more`. */
export function namedIds(checks: readonly CheckResult[], status: CheckStatus): string {
  const ids = checks.filter((check) => check.status === status).map((check) => check.id);
  const more = ids.length - NAMED_IDS;
  return more > 0 ? `${ids.slice(0, NAMED_IDS).join(", ")} and ${more} more` : ids.join(", ");
}

/**
 * "1 FAIL (lifetime.sliding), 2 WARN, 30 PASS": only the statuses that occurred, worst first; what failed or could
 * not be decided is named, so the line that says the verdict also says where to look.
 */
export function describeCounts(checks: readonly CheckResult[]): string {
  const counts = countByStatus(checks);
  const order: CheckStatus[] = ["FAIL", "ERROR", "WAIVED", "WARN", "SKIP", "PASS"];
  return order
    .filter((status) => counts[status] > 0)
    .map((status) =>
      status === "FAIL" || status === "ERROR"
        ? `${counts[status]} ${status} (${namedIds(checks, status)})`
        : `${counts[status]} ${status}`,
    )
    .join(", ");
}

/** The suite name of a rotation check's reports, which speak of the rotation rather than the contract. */
export const ROTATION_SUITE = "verify-rotation";
