/**
 * The harness follows no redirect: a 3xx would hand the client secret or a bearer token to whatever origin its
 * Location names. This module says what a redirect was, in words that never carry the Location's path or query.
 */

/** True for any 3xx: an answer the harness never follows and never counts as success or refusal. */
export function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

/** A Location header as HTTP clients give it: undici hands a repeated header over as a list. */
export type LocationHeader = string | readonly string[] | undefined;

const firstOf = (header: LocationHeader): string | undefined =>
  typeof header === "string" || header === undefined ? header : header[0];

const DEFAULT_PORTS: Readonly<Record<string, string>> = { "http:": "80", "https:": "443" };

/**
 * The origin (scheme://host:port) a Location points to, resolved against the request's URL; never its path, query
 * or user info, which may carry anything the target chose. Undefined when there is no usable http(s) Location.
 */
export function locationOrigin(header: LocationHeader, requestUrl: string): string | undefined {
  const location = firstOf(header);
  if (location === undefined || location.trim() === "") return undefined;
  let url: URL;
  try {
    url = new URL(location.trim(), requestUrl);
  } catch {
    return undefined;
  }
  const port = url.port || DEFAULT_PORTS[url.protocol];
  // The URL parser leaves only host characters in `hostname` for http(s); any other scheme is not shown.
  if (port === undefined) return undefined;
  return `${url.protocol}//${url.hostname}:${port}`;
}

/** "307 with a redirect to http://host:port (not followed)": the reason every sender gives for a 3xx. */
export function describeRedirect(status: number, header: LocationHeader, requestUrl: string): string {
  const location = firstOf(header);
  const origin = locationOrigin(location, requestUrl);
  const where =
    origin !== undefined
      ? `a redirect to ${origin}`
      : location === undefined || location.trim() === ""
        ? "a redirect without a Location"
        : "a redirect to a location that is not an http(s) URL";
  return `${status} with ${where} (not followed: credentials go to the configured URL only)`;
}
