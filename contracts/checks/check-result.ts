import type { CheckArea, CheckLevel, CheckStatus } from "./check.ts";

/** One HTTP exchange as it appears in a report: already redacted. */
export interface Evidence {
  readonly label: string;
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly headers: Readonly<Record<string, string>>;
    readonly body?: string;
  };
  readonly response?: {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    readonly body?: string;
    readonly durationMs: number;
  };
  /** Why there is no response (timeout, connection refused…). */
  readonly error?: string;
  /** A curl command that reproduces the request, with credentials replaced by placeholders. */
  readonly curl: string;
}

/** A check's outcome as written to results.json, JUnit and the summaries. */
export interface CheckResult {
  readonly id: string;
  readonly title: string;
  readonly area: CheckArea;
  readonly level: CheckLevel;
  readonly rule: string;
  readonly status: CheckStatus;
  readonly message: string;
  readonly durationMs: number;
  readonly evidence: readonly Evidence[];
}
