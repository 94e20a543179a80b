import type { Connection } from "../../transport/connection/index.ts";
import type { ClientAuth } from "../../transport/index.ts";
import type { Profile } from "../checks/check.ts";
import type { CheckResult } from "../checks/check-result.ts";
import type { KnownLifetime } from "../probe/probe.ts";

/** What the CLI hands the vitest worker: plain data, since it crosses a thread boundary. */
export interface ContractSettings {
  readonly target: {
    readonly tokenUrl: string;
    readonly baseUrl: string;
    readonly clientId: string;
    readonly clientSecret: string;
    readonly audience?: string;
    readonly clientAuth: ClientAuth;
    readonly scope?: string;
    readonly connection: Connection;
    readonly channelId?: string;
    readonly timeoutMs: number;
    readonly embedded: boolean;
  };
  readonly profile: Profile;
  readonly only: readonly string[];
  /** Seeds the event generator; the run id makes probe references unique across runs. */
  readonly seed: number;
  readonly runId: string;
  /**
   * The run's deadline: `budgetMs` from `startedAt` (epoch ms). Unless `fixed` (the user's --run-timeout), the
   * sliding-expiry probes stretch it to their horizon once they know expires_in. Default: defaultRunBudgetMs.
   */
  readonly deadline?: { readonly startedAt: number; readonly budgetMs: number; readonly fixed: boolean };
  /**
   * The expires_in known before the suite starts (the preflight's token, or the embedded sandbox's setting): a
   * sliding-expiry probe the deadline cannot hold is then refused before it sends anything.
   */
  readonly knownLifetime?: KnownLifetime;
  /** The property-based checks' inputs and time (`--fuzz-runs`, `--fuzz-time`, `--fuzz-replay`); default by profile. */
  readonly fuzz?: FuzzOptions;
}

export interface FuzzOptions {
  /** Inputs per property-based check. */
  readonly runs: number;
  /**
   * The time the property-based checks of the run share for their search; a check that finds a failure gets its
   * share again, and at least MIN_SHRINK_MS, to shrink it.
   */
  readonly timeBudgetMs: number;
  /** Replays one counterexample's path instead of searching (one property-based check selected). */
  readonly replayPath?: string;
}

/** Shrinking a failure costs a request per candidate: a few hundred on a long input. */
export const MIN_SHRINK_MS = 30_000;

/**
 * Few inputs while developing, more for the release verdict; both fit CI. The full profile's runs find each input
 * bug class the sandbox has a fault for (scripts/bench/fuzz.ts measures how soon).
 */
export const FUZZ_DEFAULTS: Readonly<Record<Profile, FuzzOptions>> = {
  fast: { runs: 25, timeBudgetMs: 20_000 },
  full: { runs: 200, timeBudgetMs: 60_000 },
};

/** The key under which the CLI provides settings and tests publish their results. */
export const SETTINGS_KEY = "eventHarnessContract";

declare module "vitest" {
  export interface ProvidedContext {
    eventHarnessContract: ContractSettings;
  }
}

declare module "@vitest/runner" {
  interface TaskMeta {
    eventHarnessResult?: CheckResult;
  }
}
