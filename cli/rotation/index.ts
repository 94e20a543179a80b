// The verify-rotation command's pipeline, which the run command calls too. Light to import: it loads the checks and
// the sandbox only when it runs.
export type { RotationOptionValues } from "./verify-rotation.ts";
export { verifyRotation } from "./verify-rotation.ts";
