// The rotation commands' machinery: verify-rotation's pipeline, which the run command calls too, and sandbox-rotate's
// rotation of a running sandbox's secret. Light to import: they load the checks, the sandbox and undici when they run.

export { rotateSandboxSecret } from "./rotate-sandbox-secret.ts";
export { verifyRotation } from "./verify-rotation.ts";
