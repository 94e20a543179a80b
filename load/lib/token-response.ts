/** The two fields a client needs from a token response. */
export interface ParsedToken {
  readonly accessToken: string;
  readonly expiresInSeconds: number;
}

/**
 * Reads a token response; undefined unless it is a 200 with a string access_token and a positive expires_in
 * (spec rule 5: the client reads expires_in and assumes no fixed value). A numeric string is accepted as a number.
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
  const { access_token: accessToken, expires_in: rawExpiresIn } = json as Record<string, unknown>;
  // Unary plus and comparisons rather than Number(): each VU parses token responses, and a k6 VU would build the
  // Number object just for them.
  const expiresInSeconds = typeof rawExpiresIn === "string" ? +rawExpiresIn : rawExpiresIn;
  if (typeof accessToken !== "string" || accessToken === "") return undefined;
  if (typeof expiresInSeconds !== "number" || !(expiresInSeconds > 0 && expiresInSeconds < Infinity)) {
    return undefined;
  }
  return { accessToken, expiresInSeconds };
}
