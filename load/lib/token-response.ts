// The file, not domain/index.ts: the index brings zod, which no VU should load.
import { isLifetime } from "../../domain/token-lifetime.ts";

/** The two fields a client needs from a token response. */
export interface ParsedToken {
  readonly accessToken: string;
  readonly expiresInSeconds: number;
}

/**
 * Reads a token response; undefined unless it is a 200 with a string access_token and an expires_in that is a
 * lifetime by the harness's one rule (spec rule 5: the client reads expires_in and assumes no fixed value).
 */
export function parseTokenResponse(status: number, body: unknown): ParsedToken | undefined {
  if (status !== 200 || typeof body !== "string") return undefined;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (json === null || typeof json !== "object") return undefined;
  const { access_token: accessToken, expires_in: expiresInSeconds } = json as Record<string, unknown>;
  if (typeof accessToken !== "string" || accessToken === "") return undefined;
  if (!isLifetime(expiresInSeconds)) return undefined;
  return { accessToken, expiresInSeconds };
}
