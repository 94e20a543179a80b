import type { Connection } from "../../transport/connection/index.ts";
import type { ClientAuth } from "../../transport/index.ts";
import type { Profile } from "../checks/check.ts";
import type { CheckResult } from "../checks/check-result.ts";

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
}

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
