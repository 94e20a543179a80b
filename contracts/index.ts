export type { Connection } from "../transport/connection/index.ts";
export {
  connectionFromEnv,
  DIRECT,
  describeConnectionFailure,
  displayProxy,
  proxyFor,
  trustedCas,
  undiciDispatcher,
} from "../transport/connection/index.ts";
export { defaultRunBudgetMs, MAX_STRETCHED_RUN_MS } from "../transport/deadline/index.ts";
export type { ClientAuth, Target } from "../transport/index.ts";
export {
  CLIENT_AUTH_METHODS,
  eventsUrl,
  Redactor,
  resolveTokenUrl,
  Secret,
  targetRedactor,
  tokenRequestParts,
} from "../transport/index.ts";
export { ALL_CHECKS, selectChecks, unknownSelectors } from "./checks/catalogue.ts";
export type { CheckArea, CheckDefinition, CheckLevel, CheckStatus, Profile } from "./checks/check.ts";
export { AREA_TITLES, CHECK_AREAS, CHECK_STATUSES, PROFILES } from "./checks/check.ts";
export type { Acceptance, CheckResult } from "./checks/check-result.ts";
export { searchShare } from "./checks/class-search.ts";
export type { Counterexample } from "./checks/counterexample.ts";
export type { RotationExpectations } from "./checks/credential-rotation.ts";
export { rotationChecks } from "./checks/credential-rotation.ts";
export type { ClassExploration, Exploration } from "./checks/exploration.ts";
export type {
  EventInputLike,
  FuzzSettings,
  InputClassLike,
  InputExpectation,
  InputSpace,
  TokenFormInputLike,
} from "./checks/input-space.ts";
export { PROPERTY_CHECK_IDS } from "./checks/property-checks.ts";
export { propertySeed, replayPathProblem } from "./checks/property-run.ts";
export { lifetimeMarginSeconds } from "./checks/token-lifetime.ts";
export type { Evidence } from "./probe/evidence.ts";
export type { KnownLifetime } from "./probe/probe.ts";
export { Probe } from "./probe/probe.ts";
export { UnansweredEndpoints } from "./probe/unanswered-endpoints.ts";
export type { ContractSettings, FuzzOptions } from "./runner/contract-settings.ts";
export { FUZZ_DEFAULTS, MIN_SHRINK_MS, SETTINGS_KEY } from "./runner/contract-settings.ts";
export { executeCheck } from "./runner/execute-check.ts";
export { PROGRESS_MARK } from "./runner/progress-channel.ts";
export { ResultsReporter } from "./runner/results-reporter.ts";
