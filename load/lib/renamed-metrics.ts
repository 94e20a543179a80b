import { EXPIRY, TOKEN_DURATION } from "./metric-names.ts";

// Its own module, which no k6 bundle imports: its property reads would keep it, and EXPIRY, in every VU otherwise.
/** Metric names of earlier releases that `--threshold` still accepts, and what they are now. */
export const RENAMED_METRICS: Readonly<Record<string, string>> = {
  token_request_duration: TOKEN_DURATION,
  token_unexpected_expiries: EXPIRY.unexpected,
  token_idle_expiries: EXPIRY.idle,
  token_idle_outlived: EXPIRY.outlived,
};
