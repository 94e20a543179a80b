import { UnsecuredJWT } from "jose";
import { describe, expect, it } from "vitest";
import { oldTokenState } from "../../../contracts/checks/old-token-state.ts";
import type { HttpResponse } from "../../../contracts/probe/http-request.ts";

const NOW = 1_900_000_000_000;
const quote = (value: string) => value;

function jwt(claims: { iat?: number; exp?: number }): string {
  return new UnsecuredJWT({ ...claims, sub: "client" }).encode();
}

function refusal(headers: Record<string, string> = {}, json: unknown = undefined): HttpResponse {
  return { status: 401, headers, text: json === undefined ? "" : JSON.stringify(json), json } as HttpResponse;
}

describe("oldTokenState", () => {
  it("reads expiry from the token's own exp", () => {
    const token = jwt({ iat: NOW / 1000 - 400, exp: NOW / 1000 - 100 });
    expect(oldTokenState(token, refusal(), NOW, 300, quote)).toEqual({
      state: "expired",
      why: `its exp ${new Date(NOW - 100_000).toISOString()} passed 100 s ago`,
    });
  });

  it("reads it from the refusal's error_description, header or body", () => {
    const header = refusal({
      "www-authenticate": 'Bearer error="invalid_token", error_description="jwt expired"',
    });
    expect(oldTokenState("opaque", header, NOW, 300, quote)).toEqual({
      state: "expired",
      why: 'the 401 says "jwt expired"',
    });
    const body = refusal({}, { Message: "The access token was revoked" });
    expect(oldTokenState("opaque", body, NOW, 300, quote).state).toBe("not-expired");
  });

  it("calls a token younger than expires_in not expired: no lifetime ends sooner", () => {
    const token = jwt({ iat: NOW / 1000 - 20, exp: NOW / 1000 + 86_400 });
    expect(oldTokenState(token, refusal(), NOW, 300, quote)).toEqual({
      state: "not-expired",
      why: "issued 20 s ago, within expires_in 300 s",
    });
  });

  it("cannot tell for an older token whose last use is unknown, or an opaque one", () => {
    const token = jwt({ iat: NOW / 1000 - 600, exp: NOW / 1000 + 86_400 });
    expect(oldTokenState(token, refusal(), NOW, 300, quote).state).toBe("unknown");
    expect(oldTokenState("opaque", refusal(), NOW, 300, quote).state).toBe("unknown");
  });

  it("decides nothing from a description that names both expiry and revocation", () => {
    const both = refusal({
      "www-authenticate":
        'Bearer error="invalid_token", error_description="not active (expired, revoked or unknown)"',
    });
    const young = jwt({ iat: NOW / 1000 - 20, exp: NOW / 1000 + 86_400 });
    expect(oldTokenState(young, both, NOW, 300, quote)).toEqual({
      state: "not-expired",
      why: "issued 20 s ago, within expires_in 300 s",
    });
    const old = jwt({ iat: NOW / 1000 - 600, exp: NOW / 1000 + 86_400 });
    expect(oldTokenState(old, both, NOW, 300, quote)).toEqual({
      state: "unknown",
      why: 'issued 600 s ago, longer than expires_in 300 s, when it was last used is not known, and the 401 says "not active (expired, revoked or unknown)", which names both',
    });
    expect(oldTokenState("opaque", both, NOW, 300, quote).state).toBe("unknown");
    const passed = jwt({ iat: NOW / 1000 - 400, exp: NOW / 1000 - 100 });
    expect(oldTokenState(passed, both, NOW, 300, quote).state).toBe("expired");
  });

  it("reads the description of the Bearer challenge only, wherever it stands among others", () => {
    const basicFirst = refusal({
      "www-authenticate":
        'Basic realm="api", error_description="expired password", Bearer error="invalid_token", error_description="The access token was revoked"',
    });
    expect(oldTokenState("opaque", basicFirst, NOW, 300, quote)).toEqual({
      state: "not-expired",
      why: 'the 401 says "The access token was revoked"',
    });
    const quotedOnly = refusal({
      "www-authenticate": 'Basic realm="Bearer error_description="jwt expired""',
    });
    expect(oldTokenState("opaque", quotedOnly, NOW, 300, quote).state).toBe("unknown");
  });
});
