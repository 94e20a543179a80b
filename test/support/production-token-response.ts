/** The token response production's Keycloak sends (shared/notes/real-service.md). */
export const PRODUCTION_TOKEN_RESPONSE = {
  access_token: "eyJhbGciOiJSUzI1NiJ9.e30.c2ln",
  expires_in: 3600,
  refresh_expires_in: 0,
  token_type: "Bearer",
  "not-before-policy": 1651869373,
  scope: "email profile",
} as const;
