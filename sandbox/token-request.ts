import type { IncomingHttpHeaders } from "node:http";
import { charset, mediaType } from "./http-body.ts";
import type { OAuthError } from "./oauth-error.ts";
import { oauthError } from "./oauth-error.ts";

/** A token request whose form is right; the endpoint still has to check the client, grant type and audience. */
export interface TokenRequest {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly grantType: string;
  /** Absent means "this API" (production clients in the wild do not send it). */
  readonly audience: string | undefined;
  /** The client authenticated with HTTP Basic (RFC 6749 §2.3.1). */
  readonly basic: boolean;
}

export type TokenRequestParse =
  | { readonly ok: true; readonly request: TokenRequest }
  | { readonly ok: false; readonly error: OAuthError };

const FORM_TYPE = "application/x-www-form-urlencoded";
const PARAMETERS = ["client_id", "client_secret", "grant_type", "audience", "scope"] as const;
type Parameter = (typeof PARAMETERS)[number];

function fail(error: OAuthError): TokenRequestParse {
  return { ok: false, error };
}

/** RFC 6749 §2.3.1: Basic credentials are form-urlencoded before base64, so `+` means a space. */
function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, " "));
  } catch {
    return undefined;
  }
}

type BasicCredentials = { readonly clientId: string; readonly clientSecret: string } | OAuthError | undefined;

function basicCredentials(authorization: string | undefined, basicAllowed: boolean): BasicCredentials {
  if (authorization === undefined) return undefined;
  if (!/^Basic(?: |$)/i.test(authorization)) {
    return oauthError(401, "invalid_client", "Only HTTP Basic client authentication is supported", true);
  }
  if (!basicAllowed) {
    return oauthError(401, "invalid_client", "HTTP Basic client authentication is not supported");
  }
  const encoded = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(authorization)?.[1];
  const decoded = encoded === undefined ? "" : Buffer.from(encoded, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  const clientId = colon > 0 ? formDecode(decoded.slice(0, colon)) : undefined;
  const clientSecret = colon > 0 ? formDecode(decoded.slice(colon + 1)) : undefined;
  if (!clientId || !clientSecret) {
    return oauthError(401, "invalid_client", "The HTTP Basic credentials are malformed", true);
  }
  return { clientId, clientSecret };
}

type Values = ReadonlyMap<Parameter, readonly string[]>;

function formValues(body: string): Values {
  const params = new URLSearchParams(body);
  const values = new Map<Parameter, string[]>();
  for (const name of PARAMETERS) values.set(name, params.getAll(name));
  return values;
}

function jsonValues(body: string): Values | OAuthError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return oauthError(400, "invalid_request", "The request body is not valid JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return oauthError(400, "invalid_request", "The request body must be a JSON object");
  }
  const values = new Map<Parameter, string[]>();
  for (const name of PARAMETERS) {
    const value: unknown = (parsed as Record<string, unknown>)[name];
    if (value !== undefined && typeof value !== "string") {
      return oauthError(400, "invalid_request", `The parameter ${name} must be a string`);
    }
    values.set(name, value === undefined ? [] : [value]);
  }
  return values;
}

export interface TokenRequestRules {
  /** The `token-json-only` fault: JSON bodies instead of form bodies. */
  readonly jsonOnly: boolean;
  /** HTTP Basic client authentication is accepted (off under `token-no-basic-auth`). */
  readonly basicAllowed: boolean;
  /** Client credentials in the body are accepted (off under `token-basic-only`). */
  readonly formCredentialsAllowed: boolean;
  /** The `token-repeated-params-accepted` fault: a repeated parameter's first value is taken. */
  readonly repeatedAccepted?: boolean;
}

/** Whether a form body sends a known parameter without a value (the `token-empty-param-5xx` fault fails on it). */
export function hasEmptyParameter(body: Buffer): boolean {
  const params = new URLSearchParams(body.toString("utf8"));
  return PARAMETERS.some((name) => params.getAll(name).includes(""));
}

/** Whether a form body leaves out grant_type, or client_id or client_secret with no Basic header to carry them. */
export function lacksParameter(body: Buffer, authorization: string | undefined): boolean {
  const params = new URLSearchParams(body.toString("utf8"));
  const basic = authorization !== undefined && /^basic /i.test(authorization);
  return !params.has("grant_type") || (!basic && (!params.has("client_id") || !params.has("client_secret")));
}

/** Whether a form value or the Authorization header is longer than 1,000 characters. */
export function hasLongValue(body: Buffer, authorization: string | undefined): boolean {
  const params = new URLSearchParams(body.toString("utf8"));
  return (authorization?.length ?? 0) > 1_000 || [...params.values()].some((value) => value.length > 1_000);
}

/** Whether a form body holds a parameter the endpoint does not know (resource, RFC 8707, it does). */
export function hasUnknownParameter(body: Buffer): boolean {
  const known = new Set<string>([...PARAMETERS, "resource"]);
  return [...new URLSearchParams(body.toString("utf8")).keys()].some((name) => !known.has(name));
}

/** Checks the form of a token request (RFC 6749 §3.2, §4.4.2, §2.3.1) and reads its parameters. */
export function parseTokenRequest(
  headers: IncomingHttpHeaders,
  body: Buffer,
  rules: TokenRequestRules,
): TokenRequestParse {
  const contentType = headers["content-type"];
  const type = mediaType(contentType);
  const set = charset(contentType);
  if (set !== undefined && set !== "utf-8" && set !== "utf8") {
    return fail(oauthError(400, "invalid_request", "The request body must be UTF-8"));
  }
  let values: Values;
  if (rules.jsonOnly) {
    if (type !== "application/json") {
      return fail(oauthError(400, "invalid_request", "The Content-Type must be application/json"));
    }
    const parsed = jsonValues(body.toString("utf8"));
    if (!(parsed instanceof Map)) return fail(parsed as OAuthError);
    values = parsed;
  } else {
    if (type !== FORM_TYPE) {
      return fail(oauthError(400, "invalid_request", `The Content-Type must be ${FORM_TYPE}`));
    }
    values = formValues(body.toString("utf8"));
  }

  const single: Partial<Record<Parameter, string>> = {};
  for (const name of PARAMETERS) {
    const all = values.get(name) ?? [];
    // RFC 6749 §3.2: parameters must not be repeated.
    if (all.length > 1 && rules.repeatedAccepted !== true)
      return fail(oauthError(400, "invalid_request", `The parameter ${name} is repeated`));
    // RFC 6749 §3.1: a parameter sent without a value is treated as omitted.
    if (all[0] !== undefined && all[0] !== "") single[name] = all[0];
  }

  const basic = basicCredentials(headers.authorization, rules.basicAllowed);
  if (basic !== undefined && "status" in basic) return fail(basic);
  if (basic !== undefined) {
    // RFC 6749 §2.3: a client must not use more than one authentication method per request.
    if (single.client_secret !== undefined) {
      return fail(
        oauthError(
          400,
          "invalid_request",
          "Send the client credentials either with HTTP Basic or in the form, not both",
        ),
      );
    }
    if (single.client_id !== undefined && single.client_id !== basic.clientId) {
      return fail(
        oauthError(400, "invalid_request", "The client_id in the form differs from the HTTP Basic one"),
      );
    }
  }

  if (basic === undefined && !rules.formCredentialsAllowed && single.client_secret !== undefined) {
    return fail(
      oauthError(
        401,
        "invalid_client",
        "Client credentials in the request body are not accepted: use HTTP Basic",
        true,
      ),
    );
  }

  if (single.grant_type === undefined) {
    return fail(oauthError(400, "invalid_request", "The parameter grant_type is missing"));
  }
  const clientId = basic?.clientId ?? single.client_id;
  const clientSecret = basic?.clientSecret ?? single.client_secret;
  if (clientId === undefined)
    return fail(oauthError(400, "invalid_request", "The parameter client_id is missing"));
  if (clientSecret === undefined) {
    return fail(oauthError(400, "invalid_request", "The parameter client_secret is missing"));
  }
  return {
    ok: true,
    request: {
      clientId,
      clientSecret,
      grantType: single.grant_type,
      audience: single.audience,
      basic: basic !== undefined,
    },
  };
}
