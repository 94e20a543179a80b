import { EXPIRY, TOKEN_DURATION, TOKEN_FAILURES } from "./metric-names.ts";

// Its own module, which no k6 bundle imports: property reads would keep these tables, and EXPIRY, in every VU otherwise.
/** Metric names of earlier releases that `--threshold` still accepts, and what they are now. */
export const RENAMED_METRICS: Readonly<Record<string, string>> = {
  token_request_duration: TOKEN_DURATION,
  token_unexpected_expiries: EXPIRY.unexpected,
  token_idle_expiries: EXPIRY.idle,
  token_idle_outlived: EXPIRY.outlived,
  token_request_failures: TOKEN_FAILURES,
};

/** Metric names of earlier releases with no single metric now, and what `--threshold` should name instead. */
export const RETIRED_METRICS: Readonly<Record<string, string>> = {
  token_refreshes:
    "refreshes are the token requests of reasons idle, lifetime and rejected that got a token: name one of " +
    "token_requests{reason:idle,outcome:issued}, token_requests{reason:lifetime,outcome:issued}, " +
    "token_requests{reason:rejected,outcome:issued}",
};
