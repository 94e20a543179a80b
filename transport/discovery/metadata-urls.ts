/**
 * Where an issuer publishes its metadata, in the order tried: OpenID Connect Discovery appends its well-known path to
 * the issuer; RFC 8414 §3.1 inserts its own between the host and the issuer's path.
 */
export function metadataUrls(issuer: string): readonly string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, "");
  return [
    `${url.origin}${path}/.well-known/openid-configuration`,
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
  ];
}

/** The issuer and each shorter path of it down to its origin: where a wrong --auth-url's server may publish metadata. */
export function issuerCandidates(url: string, max = 4): readonly string[] {
  const parsed = new URL(url);
  const segments = parsed.pathname.split("/").filter(Boolean);
  const candidates: string[] = [];
  for (let keep = segments.length; keep >= 0 && candidates.length < max; keep -= 1) {
    candidates.push(`${parsed.origin}${keep === 0 ? "" : `/${segments.slice(0, keep).join("/")}`}`);
  }
  return candidates;
}
