import { SPEC_TOKEN_PATH } from "../../domain/index.ts";

/**
 * The token URL the user most likely meant when the one tried is not a token endpoint: an --auth-url that already
 * ended in /oauth/token or /token had the spec's path appended once more. Discovery (an issuer's token_endpoint) is
 * the other source of a suggestion; it is asked by the caller, not here.
 */
export function tokenUrlHint(tokenUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(tokenUrl);
  } catch {
    return undefined;
  }
  if (!url.pathname.endsWith(SPEC_TOKEN_PATH)) return undefined;
  const meant = url.pathname.slice(0, -SPEC_TOKEN_PATH.length);
  if (!/\/(oauth\/)?token\/*$/.test(meant)) return undefined;
  url.pathname = meant.replace(/\/+$/, "");
  url.username = "";
  url.password = "";
  return url.toString();
}
