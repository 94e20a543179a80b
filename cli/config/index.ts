export type { AppliedConfig } from "./apply-config.ts";
export { applyConfig } from "./apply-config.ts";
export type { ConfigKey, ConfigKeyName } from "./config-keys.ts";
export { CONFIG_KEY_NAMES, CONFIG_KEYS } from "./config-keys.ts";
export { CONFIG_SCHEMA_PATH, configFileSchema, configJsonSchema } from "./config-schema.ts";
export { jsonErrorPosition } from "./json-error-position.ts";
export { readConfigEnvironment } from "./read-config.ts";
