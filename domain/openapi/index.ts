export type { OpenApiDocument, OpenApiOptions, OpenApiTargets } from "./openapi-document.ts";
export {
  buildOpenApiDocument,
  EVENTS_PATH,
  OPENAPI_VERSION,
  PLACEHOLDER_AUTH_URL,
  PLACEHOLDER_BASE_URL,
} from "./openapi-document.ts";
