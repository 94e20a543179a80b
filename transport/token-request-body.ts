import type { ClientAuth, Target } from "./target.ts";

/** A token request's headers and form body; `undefined` fields are left out (negative probes remove fields). */
export interface TokenRequestParts {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** RFC 6749 §2.3.1 and Appendix B: id and secret are form-urlencoded, then joined by ":" and base64-encoded. */
export function basicCredentials(clientId: string, clientSecret: string): string {
  const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
  return Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString("base64");
}

/**
 * The token request as the configured client authentication sends it: `post` puts client_id and client_secret in
 * the form (the spec's request), `basic` moves them into an Authorization header and leaves them out of the form.
 */
export function tokenRequestParts(
  clientAuth: ClientAuth,
  fields: Readonly<Record<string, string | undefined>>,
): TokenRequestParts {
  const { client_id: clientId, client_secret: clientSecret, ...rest } = fields;
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  const form: Record<string, string | undefined> =
    clientAuth === "basic" ? rest : { client_id: clientId, client_secret: clientSecret, ...rest };
  if (clientAuth === "basic") {
    headers.authorization = `Basic ${basicCredentials(clientId ?? "", clientSecret ?? "")}`;
  }
  const present = Object.entries(form).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return { headers, body: new URLSearchParams(present).toString() };
}

/**
 * The form fields of a valid token request to the target, before client authentication moves any: the spec's, then
 * `resource` and the user's own parameters. Every sender (contract, preflight, rotation) starts from these.
 */
export function targetTokenFields(
  target: Pick<Target, "clientId" | "clientSecret" | "audience" | "scope" | "resource" | "tokenParams">,
): Record<string, string> {
  return {
    client_id: target.clientId,
    client_secret: target.clientSecret.reveal(),
    grant_type: "client_credentials",
    ...(target.audience === undefined ? {} : { audience: target.audience }),
    ...(target.scope === undefined ? {} : { scope: target.scope }),
    ...(target.resource === undefined ? {} : { resource: target.resource }),
    ...target.tokenParams,
  };
}
