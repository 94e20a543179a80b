/**
 * Token-handling behaviours of real clients (shared/notes/real-service.md), selectable with `--client-model`:
 * - `sliding`: refreshes when the idle time nears expires_in (what the spec's rule 6 allows; the default);
 * - `refresh-on-401`: keeps its token until the API rejects it (a workflow-tool integration);
 * - `cache-until-expiry`: refreshes at issued + expires_in, ignoring sliding expiry (the TypeScript SDK);
 * - `token-per-iteration`: a new token for every iteration (the PHP wrapper, one token per run).
 */
export const CLIENT_MODELS = [
  "sliding",
  "refresh-on-401",
  "cache-until-expiry",
  "token-per-iteration",
] as const;

export type ClientModel = (typeof CLIENT_MODELS)[number];

export const CLIENT_MODEL_SUMMARIES: Readonly<Record<ClientModel, string>> = {
  sliding: "refresh when idle time nears expires_in (sliding-expiry aware)",
  "refresh-on-401": "keep the token until a 401, then refresh",
  "cache-until-expiry": "refresh at issued + expires_in, ignoring sliding expiry",
  "token-per-iteration": "fetch a new token for every iteration",
};
