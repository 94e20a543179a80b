export type { InputFileReading } from "./input-file.ts";
export {
  MAX_INPUT_FILE_BYTES,
  MAX_RECORD_FILE_BYTES,
  notRegularFile,
  readInputFile,
  readInputFileSync,
} from "./input-file.ts";
export { jsonObjectOf } from "./json-object.ts";
export type { OAuthError } from "./oauth-error-text.ts";
export { DESCRIPTION_CHARS, describeOAuthError, oauthErrorOf } from "./oauth-error-text.ts";
export { MAX_TOKEN_CHARS, MAX_TOKEN_TEXT_CHARS, Redactor } from "./redactor.ts";
export { Secret } from "./secret.ts";
export type { ClientAuth, Target, TokenEndpointFacts } from "./target.ts";
export {
  CLIENT_AUTH_METHODS,
  describeTokenEndpoint,
  eventsUrl,
  foreignTokenOrigin,
  mapTokenEndpointFacts,
  resolveTokenUrl,
  tokenEndpointFacts,
} from "./target.ts";
export { targetRedactor } from "./target-redactor.ts";
export type { TokenRequestParts } from "./token-request-body.ts";
export { basicCredentials, targetTokenFields, tokenRequestParts } from "./token-request-body.ts";
export { inertText } from "./untrusted-text.ts";
