export type { Connection, ProxySettings } from "./connection.ts";
export { connectionFromEnv, DIRECT, INSECURE_WARNING } from "./connection.ts";
export { ConnectionError } from "./connection-error.ts";
export { describeConnectionFailure } from "./describe-failure.ts";
export { nodeRequestOptions } from "./node-agent.ts";
export { displayProxy, proxyFor } from "./proxy-for.ts";
export { BodyCap, MAX_RESPONSE_BODY_BYTES, ResponseTooLargeError, readCappedText } from "./response-cap.ts";
export { tlsOptions, trustedCas } from "./trusted-cas.ts";
export { undiciDispatcher } from "./undici-dispatcher.ts";
