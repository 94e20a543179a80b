// The ground every layer stands on: no Node or k6 APIs, so the k6 scenarios bundle it as the CLI does.

export { countNoun } from "./count-noun.ts";
export type { ErrorCode, UsageErrorCode } from "./errors.ts";
export {
  BundleTooLargeError,
  CannotRunError,
  ConnectionError,
  ContractRunError,
  EnvError,
  HarnessError,
  PrerequisiteError,
  RedirectAnswerError,
  ResponseTooLargeError,
  RotationUnconfirmedError,
  ServerFailureError,
  TransportError,
  UndecidableError,
  UsageError,
} from "./errors.ts";
export { formatBytes } from "./format-bytes.ts";
export type { DurationParts } from "./format-duration.ts";
export { formatDuration, formatDurationCompact, splitDuration } from "./format-duration.ts";
export type { NextUint32 } from "./random.ts";
export { below, createSfc32, fraction } from "./random.ts";
