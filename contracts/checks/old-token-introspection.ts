import { RedirectAnswerError, TransportError } from "../../core/index.ts";
import type { Probe } from "../probe/probe.ts";
import { describeResponse, jsonObject } from "./describe.ts";

/** What the issuer's introspection endpoint says of the earlier token, or why it cannot be asked. */
export type OldTokenIntrospection =
  | { readonly state: "active" | "inactive"; readonly why: string }
  | { readonly state: "unusable"; readonly why: string };

/** One introspection: the `active` member of a 200, or what came instead, in words. */
async function introspect(
  probe: Probe,
  label: string,
  token: string,
): Promise<{ readonly active: boolean } | { readonly said: string }> {
  const request = probe.introspectionRequest(token);
  if (request === undefined) return { said: "no introspection endpoint" };
  try {
    // A 5xx here is no verdict on the API: the introspection is only evidence.
    const response = await probe.exchange(label, request, { serverErrors: "report" });
    const active = jsonObject(response)?.active;
    if (response.status === 200 && typeof active === "boolean") return { active };
    return { said: describeResponse(response, probe.redactor) };
  } catch (error) {
    if (error instanceof TransportError || error instanceof RedirectAnswerError)
      return { said: error.message };
    throw error;
  }
}

/**
 * Asks the issuer's introspection endpoint (RFC 7662) about the earlier token, after asking it about a fresh token
 * the API has just accepted: only an endpoint that calls that one active is believed when it calls the earlier one
 * inactive (Keycloak, for one, calls every token inactive for a client that is not in the token's audience).
 * Undefined when the target has no introspection endpoint.
 */
export async function introspectOldToken(
  probe: Probe,
  oldToken: string,
  freshToken: string,
): Promise<OldTokenIntrospection | undefined> {
  if (probe.target.introspectionEndpoint === undefined) return undefined;
  const control = await introspect(probe, "introspect a fresh token", freshToken);
  if (!("active" in control) || !control.active) {
    const said = "active" in control ? `it answered active: false` : control.said;
    return {
      state: "unusable",
      why: `the issuer's introspection endpoint does not call a fresh, working token active (${said}); Keycloak answers so to a client that is not in the token's audience`,
    };
  }
  const old = await introspect(probe, "introspect the token from before the rotation", oldToken);
  if (!("active" in old)) {
    return {
      state: "unusable",
      why: `the issuer's introspection endpoint gave no answer on it (${old.said})`,
    };
  }
  const state = old.active ? "active" : "inactive";
  return {
    state,
    why: `the issuer's introspection endpoint calls it ${state}, and a fresh token active`,
  };
}
