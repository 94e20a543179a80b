import { SPEC_EXAMPLE_FIELDS, SPEC_SCOPES, scopeSet, TOKEN_ERROR_CODES } from "../../domain/index.ts";
import type { ClientAuth } from "../../transport/index.ts";
import { CLIENT_AUTH_METHODS } from "../../transport/index.ts";
import { parseJws } from "../probe/forged-tokens.ts";
import { isSuccess } from "../probe/http-request.ts";
import type { Probe } from "../probe/probe.ts";
import type { Finding } from "./check.ts";
import { broken, defineCheck, holds, skipped } from "./check.ts";
import { accessTokenOf, describeResponse, jsonObject } from "./describe.ts";
import { premiseToken } from "./premise.ts";
import type { Refusal } from "./refusal.ts";
import { describeRefusal, INVALID_CLIENT, isRefusal, REFUSED_GRANT } from "./refusal.ts";
import { exampleFieldProblems, ruleFieldProblems } from "./token-response-fields.ts";
import { wrongSecret } from "./wrong-secret.ts";

/** RFC 6749 §5.2 error codes, the same list the OpenAPI document gives. */
const RFC6749_ERRORS: ReadonlySet<string> = new Set(TOKEN_ERROR_CODES);

async function requestValidToken(probe: Probe, label: string) {
  const response = await probe.exchange(label, probe.tokenRequest());
  return { response, token: accessTokenOf(response) };
}

/**
 * A token request that must not yield a token: it holds only on the refusal the rule names, and only once the same
 * endpoint gave the given credentials a token (else the refusal may be the one that stops every request).
 */
async function refusesToken(
  probe: Probe,
  label: string,
  overrides: Record<string, string>,
  refusal: Refusal,
): Promise<Finding> {
  await premiseToken(probe);
  const response = await probe.exchange(label, probe.tokenRequest(overrides));
  const said = describeResponse(response, probe.redactor);
  if (accessTokenOf(response) !== undefined) return broken(`expected no access token, received one: ${said}`);
  if (!isRefusal(response, refusal)) {
    return broken(`expected a refusal, ${describeRefusal(refusal)}, received ${said}, which is not one`);
  }
  return holds(`refused without a token: ${said}`);
}

/** How messages name each client authentication. */
const METHOD_WORDS: Readonly<Record<ClientAuth, string>> = { post: "form fields", basic: "HTTP Basic" };

/**
 * Credentials that must not yield a token (RFC 6749 §2.3: a server authenticates the client with every method it
 * accepts): refused with the configured method, and with the other one too when the server accepts it (valid
 * credentials sent that way get a token), so a check skipped on one way in is not a bypass that passes.
 */
async function refusedWithEveryMethod(
  probe: Probe,
  what: string,
  overrides: Record<string, string>,
): Promise<Finding> {
  await premiseToken(probe);
  const refused: string[] = [];
  const notAccepted: string[] = [];
  for (const method of CLIENT_AUTH_METHODS) {
    const words = METHOD_WORDS[method];
    const configured = method === probe.target.clientAuth;
    if (!configured) {
      const valid = await probe.exchange(
        `token request with valid credentials with ${words}`,
        probe.tokenRequest({}, method),
      );
      if (accessTokenOf(valid) === undefined) {
        notAccepted.push(`${words}: valid credentials got no token either, no bypass to look for`);
        continue;
      }
    }
    const response = await probe.exchange(
      `token request with ${what} with ${words}`,
      probe.tokenRequest(overrides, method),
    );
    const answer = describeResponse(response, probe.redactor);
    const how = `with ${words}${configured ? "" : " (which the server accepts)"}`;
    if (accessTokenOf(response) !== undefined)
      return broken(`${how}, ${what} got an access token: ${answer}`);
    if (!isRefusal(response, INVALID_CLIENT)) {
      return broken(
        `${how}, expected a refusal, ${describeRefusal(INVALID_CLIENT)}, received ${answer}, which is not one`,
      );
    }
    refused.push(`with ${words} (${answer})`);
  }
  return holds(`refused without a token ${[refused.join(" and "), ...notAccepted].join("; ")}`);
}

export const tokenIssued = defineCheck({
  id: "token.issued",
  title: "Valid credentials, sent with the configured client authentication, give an access token",
  area: "token",
  level: "MUST",
  rule: "Endpoints §1 rule 1",
  profile: "fast",
  async run(probe) {
    const { response, token } = await requestValidToken(probe, "token request with valid credentials");
    const said = describeResponse(response, probe.redactor);
    if (!isSuccess(response.status) || token === undefined) {
      return broken(`expected a success response carrying access_token, received ${said}`);
    }
    return holds(`${response.status} with an access token`);
  },
});

export const tokenResponseShape = defineCheck({
  id: "token.response-schema",
  title:
    "The token response has the fields the spec's rules use: access_token, token_type Bearer, expires_in",
  area: "token",
  level: "MUST",
  rule: "Resources: Access token response",
  profile: "fast",
  async run(probe) {
    const { response, token } = await requestValidToken(probe, "token request with valid credentials");
    if (token === undefined) return skipped("the token endpoint gave no access token (see token.issued)");
    const body = jsonObject(response) ?? {};
    const problems = ruleFieldProblems(body, (value) => probe.quote(value));
    if (problems.length > 0)
      return broken(`expected the token response the spec's rules require, but ${problems.join("; ")}`);
    return holds(
      `access_token, token_type "${probe.quote(body.token_type)}" and expires_in ${probe.quote(body.expires_in)}`,
    );
  },
});

export const tokenExampleFields = defineCheck({
  id: "token.example-fields",
  title: `The token response carries the rest of the spec's example: ${SPEC_EXAMPLE_FIELDS.join(", ")} (Keycloak's)`,
  area: "token",
  level: "SHOULD",
  rule: "Resources: Access token response (the example; no rule needs these fields)",
  profile: "fast",
  async run(probe) {
    const { response, token } = await requestValidToken(probe, "token request with valid credentials");
    if (token === undefined) return skipped("the token endpoint gave no access token (see token.issued)");
    const { absent, wrong } = exampleFieldProblems(jsonObject(response) ?? {}, (value) => probe.quote(value));
    const problems = [
      ...(absent.length > 0
        ? [
            `${absent.join(" and ")}, ${absent.length > 1 ? "fields" : "a field"} of the spec's example response (Keycloak), ${absent.length > 1 ? "are" : "is"} absent`,
          ]
        : []),
      ...wrong,
    ];
    if (problems.length > 0) return broken(problems.join("; "));
    return holds(`${SPEC_EXAMPLE_FIELDS.join(" and ")} present and typed`);
  },
});

/** What to pass when the server granted only what the request asked for, which lacked `missing`. */
function askFor(asked: string | undefined, missing: readonly string[]): string {
  const scopes = [...scopeSet(asked ?? ""), ...missing].join(" ");
  return `; the server granted only what was asked for (${asked === undefined ? "no --scope was given" : `--scope "${asked}"`}): ask for them with --scope "${scopes}"`;
}

export const tokenScope = defineCheck({
  id: "token.scope",
  title: "The granted scope lists profile and email (compared as a set)",
  area: "token",
  level: "SHOULD",
  rule: "Resources: Access token response (scope)",
  profile: "fast",
  async run(probe) {
    const { response, token } = await requestValidToken(probe, "token request with valid credentials");
    if (token === undefined) return skipped("the token endpoint gave no access token (see token.issued)");
    const scope = jsonObject(response)?.scope;
    const asked = probe.target.scope;
    if (typeof scope !== "string")
      return broken(
        `expected scope to be a string, received ${probe.quote(scope)}${scope === undefined ? askFor(asked, SPEC_SCOPES) : ""}`,
      );
    const granted = scopeSet(scope);
    const missing = SPEC_SCOPES.filter((name) => !granted.has(name));
    if (missing.length > 0) {
      // A server that grants only what was asked for (Hydra, oidc-provider) needs the spec's scopes in the request.
      const askedSet = scopeSet(asked ?? "");
      const onlyAsked = [...granted].every((name) => askedSet.has(name));
      return broken(
        `expected scopes ${SPEC_SCOPES.join(", ")}, "${probe.quote(scope)}" lacks ${missing.join(", ")}${onlyAsked ? askFor(asked, missing) : ""}`,
      );
    }
    return holds(`scope "${probe.quote(scope)}"`);
  },
});

export const tokenSigned = defineCheck({
  id: "token.signed",
  title: "The access token is a signed token (JWS compact form, alg not none)",
  area: "token",
  level: "MUST",
  rule: "Resources: access_token is a signed token",
  profile: "fast",
  async run(probe) {
    const { token } = await requestValidToken(probe, "token request with valid credentials");
    if (token === undefined) return skipped("the token endpoint gave no access token (see token.issued)");
    const parts = parseJws(token);
    if (parts === undefined)
      return broken(
        "expected a JWS compact serialisation (header.payload.signature), received an opaque string",
      );
    const alg = String(parts.header.alg ?? "");
    if (alg === "" || alg.toLowerCase() === "none" || parts.segments[2] === "") {
      return broken(
        `expected a signature, received alg "${probe.quote(alg) || "(missing)"}" with ${parts.segments[2] ? "a" : "no"} signature`,
      );
    }
    return holds(
      `JWS signed with ${probe.quote(alg)}${parts.header.kid === undefined ? "" : ", with a kid"}`,
    );
  },
});

export const tokenReissue = defineCheck({
  id: "token.reissue",
  title: "Repeating the token call gives a new token that works",
  area: "token",
  level: "MUST",
  rule: "Endpoints §1 rule 2",
  profile: "fast",
  async run(probe) {
    const first = await probe.obtainToken("first token request");
    const second = await probe.obtainToken("repeated token request");
    const response = await probe.postEvent("create an event with the second token", second.accessToken);
    const said = describeResponse(response, probe.redactor);
    if (response.status === 401 || response.status === 403) {
      return broken(`expected the repeated call's token to be accepted, received ${said}`);
    }
    if (!isSuccess(response.status)) {
      return skipped(`event creation failed whatever the token (${said}; see events.accepted)`);
    }
    const fresh = first.accessToken === second.accessToken ? "the same token again" : "a new token";
    return holds(`the repeated call gave ${fresh}, accepted with ${response.status}`);
  },
});

export const tokenWrongSecret = defineCheck({
  id: "token.wrong-secret-refused",
  title: "A wrong client secret yields no token, with every client authentication the server accepts",
  area: "token",
  level: "MUST",
  rule: "Authentication rule 1; RFC 6749 §2.3, §5.2",
  profile: "fast",
  run: (probe) =>
    refusedWithEveryMethod(probe, "a wrong secret", {
      client_secret: wrongSecret(probe.target.clientSecret.reveal()),
    }),
});

export const tokenUnknownClient = defineCheck({
  id: "token.unknown-client-refused",
  title: "An unknown client id yields no token, with every client authentication the server accepts",
  area: "token",
  level: "MUST",
  rule: "Authentication rule 1; RFC 6749 §2.3, §5.2",
  profile: "fast",
  run: (probe) => refusedWithEveryMethod(probe, "an unknown client", { client_id: "eah-unknown-client" }),
});

export const tokenGrantType = defineCheck({
  id: "token.grant-type-enforced",
  title: "A grant type other than client_credentials yields no token",
  area: "token",
  level: "MUST",
  rule: "Endpoints §1: grant_type is client_credentials; RFC 6749 §5.2",
  profile: "fast",
  run: (probe) =>
    refusesToken(probe, "token request with grant_type=password", { grant_type: "password" }, REFUSED_GRANT),
});

export const tokenErrorFormat = defineCheck({
  id: "token.error-format",
  title: "Token errors are 400/401 JSON with an RFC 6749 error code",
  area: "token",
  level: "SHOULD",
  rule: "RFC 6749 §5.2",
  profile: "fast",
  async run(probe) {
    // The format of a refusal is judged only where the given credentials get a token.
    await premiseToken(probe);
    const problems: string[] = [];
    const probes = [
      ["wrong secret", { client_secret: wrongSecret(probe.target.clientSecret.reveal()) }],
      ["unsupported grant type", { grant_type: "password" }],
    ] as const;
    for (const [what, overrides] of probes) {
      const response = await probe.exchange(`token request with a ${what}`, probe.tokenRequest(overrides));
      const said = describeResponse(response, probe.redactor);
      const code = jsonObject(response)?.error;
      if (response.status !== 400 && response.status !== 401)
        problems.push(`${what}: expected 400 or 401, received ${said}`);
      else if (typeof code !== "string" || !RFC6749_ERRORS.has(code)) {
        problems.push(`${what}: expected a JSON body with an RFC 6749 "error" code, received ${said}`);
      }
    }
    return problems.length > 0 ? broken(problems.join("; ")) : holds("400/401 with RFC 6749 error codes");
  },
});

export const tokenNoStore = defineCheck({
  id: "token.no-store",
  title: "The token response is not cacheable (Cache-Control: no-store, Pragma: no-cache)",
  area: "token",
  level: "SHOULD",
  rule: "RFC 6749 §5.1",
  profile: "fast",
  async run(probe) {
    const { response, token } = await requestValidToken(probe, "token request with valid credentials");
    if (token === undefined) return skipped("the token endpoint gave no access token (see token.issued)");
    const cacheControl = response.headers["cache-control"];
    const pragma = response.headers.pragma;
    const received = (value: string | undefined) =>
      value === undefined ? "absent" : `received "${probe.quote(value)}"`;
    const missing = [
      /(^|,)\s*no-store\s*(,|$)/i.test(cacheControl ?? "")
        ? ""
        : `Cache-Control: no-store (${received(cacheControl)})`,
      /no-cache/i.test(pragma ?? "") ? "" : `Pragma: no-cache (${received(pragma)})`,
    ].filter(Boolean);
    return missing.length > 0
      ? broken(`expected ${missing.join(" and ")}`)
      : holds("Cache-Control: no-store, Pragma: no-cache");
  },
});

/** A token request authenticated with `method` must yield a token (a SHOULD: the other method is the MUST). */
async function acceptsMethod(probe: Probe, method: ClientAuth, label: string): Promise<Finding> {
  const response = await probe.exchange(label, probe.tokenRequest({}, method));
  const said = describeResponse(response, probe.redactor);
  if (accessTokenOf(response) !== undefined) return holds(`${response.status} with an access token`);
  const refused = INVALID_CLIENT.statuses.includes(response.status);
  const expected = `expected an access token, received ${refused ? "a refusal: " : ""}${said}`;
  const other = probe.target.clientAuth;
  if (!refused || other === method) return broken(expected);
  // The same credentials sent the run's way tell a refused method from refused credentials.
  const control = await probe.exchange(
    `the same credentials with --client-auth ${other}`,
    probe.tokenRequest({}, other),
  );
  return broken(
    accessTokenOf(control) === undefined ? expected : `${expected}; works with --client-auth ${other}`,
  );
}

export const tokenFormAuth = defineCheck({
  id: "token.form-auth",
  title: "Client credentials as form fields (the spec's request) are accepted",
  area: "token",
  level: "SHOULD",
  rule: "Endpoints §1 form fields; RFC 6749 §2.3.1 (MAY)",
  profile: "fast",
  run: (probe) =>
    acceptsMethod(probe, "post", "token request with client_id and client_secret as form fields"),
});

export const tokenBasicAuth = defineCheck({
  id: "token.basic-auth",
  title: "HTTP Basic client authentication is accepted",
  area: "token",
  level: "SHOULD",
  rule: "RFC 6749 §2.3.1",
  profile: "fast",
  run: (probe) => acceptsMethod(probe, "basic", "token request with HTTP Basic client authentication"),
});

export const TOKEN_CHECKS = [
  tokenIssued,
  tokenResponseShape,
  tokenExampleFields,
  tokenScope,
  tokenSigned,
  tokenReissue,
  tokenWrongSecret,
  tokenUnknownClient,
  tokenGrantType,
  tokenErrorFormat,
  tokenNoStore,
  tokenFormAuth,
  tokenBasicAuth,
] as const;
