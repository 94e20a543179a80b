import type { IncomingHttpHeaders } from "node:http";
import { describe, expect, it } from "vitest";
import type { TokenRequestRules } from "../../sandbox/token-request.ts";
import {
  hasEmptyParameter,
  hasLongValue,
  hasUnknownParameter,
  lacksParameter,
  parseTokenRequest,
} from "../../sandbox/token-request.ts";

const FORM = "application/x-www-form-urlencoded";
const RULES: TokenRequestRules = { jsonOnly: false, basicAllowed: true, formCredentialsAllowed: true };
const VALID = "grant_type=client_credentials&client_id=shop&client_secret=s3cret";
const body = (text: string) => Buffer.from(text, "utf8");
/** An HTTP Basic header from the already form-encoded id and secret, written by hand. */
const basic = (pair: string, scheme = "Basic") => `${scheme} ${Buffer.from(pair, "utf8").toString("base64")}`;

function parse(headers: IncomingHttpHeaders, text: string, rules: Partial<TokenRequestRules> = {}) {
  return parseTokenRequest(headers, body(text), { ...RULES, ...rules });
}

function refusal(headers: IncomingHttpHeaders, text: string, rules: Partial<TokenRequestRules> = {}) {
  const result = parse(headers, text, rules);
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.request)}`);
  return result.error;
}

describe("parseTokenRequest", () => {
  it("reads the spec's form, the audience absent when not sent", () => {
    expect(parse({ "content-type": FORM }, VALID)).toEqual({
      ok: true,
      request: {
        clientId: "shop",
        clientSecret: "s3cret",
        grantType: "client_credentials",
        audience: undefined,
        basic: false,
      },
    });
  });

  it("decodes form values and takes a media type in other case with charset=UTF-8", () => {
    const result = parse(
      { "content-type": "Application/X-WWW-Form-URLEncoded; charset=UTF-8" },
      "grant_type=client_credentials&client_id=shop+7&client_secret=p%26ss%3Dw&audience=https%3A%2F%2Fapi.example.com",
    );
    expect(result.ok && result.request).toMatchObject({
      clientId: "shop 7",
      clientSecret: "p&ss=w",
      audience: "https://api.example.com",
    });
  });

  it("treats a parameter sent empty as omitted (RFC 6749 §3.1)", () => {
    const result = parse({ "content-type": FORM }, `${VALID}&audience=`);
    expect(result.ok && result.request.audience).toBeUndefined();
    expect(refusal({ "content-type": FORM }, "grant_type=&client_id=shop&client_secret=s3cret")).toEqual({
      status: 400,
      error: "invalid_request",
      description: "The parameter grant_type is missing",
      basicChallenge: false,
    });
  });

  it.each([
    ["no Content-Type", {}, `The Content-Type must be ${FORM}`],
    ["JSON", { "content-type": "application/json" }, `The Content-Type must be ${FORM}`],
    [
      "a charset other than UTF-8",
      { "content-type": `${FORM}; charset=ISO-8859-1` },
      "The request body must be UTF-8",
    ],
  ])("refuses a form with %s as invalid_request", (_what, headers, description) => {
    expect(refusal(headers, VALID)).toMatchObject({ status: 400, error: "invalid_request", description });
  });

  it("refuses a repeated parameter, even with the same value, unless the fault takes the first", () => {
    expect(refusal({ "content-type": FORM }, `${VALID}&client_id=shop`).description).toBe(
      "The parameter client_id is repeated",
    );
    const taken = parse({ "content-type": FORM }, `${VALID}&client_id=other`, { repeatedAccepted: true });
    expect(taken.ok && taken.request.clientId).toBe("shop");
  });

  it.each([
    ["grant_type", "client_id=shop&client_secret=s3cret"],
    ["client_id", "grant_type=client_credentials&client_secret=s3cret"],
    ["client_secret", "grant_type=client_credentials&client_id=shop"],
  ])("names the missing %s", (name, text) => {
    expect(refusal({ "content-type": FORM }, text)).toMatchObject({
      status: 400,
      error: "invalid_request",
      description: `The parameter ${name} is missing`,
    });
  });

  it("reads HTTP Basic credentials form-decoded after base64 (RFC 6749 §2.3.1), scheme in any case", () => {
    for (const scheme of ["Basic", "basic", "BASIC"]) {
      const result = parse(
        { "content-type": FORM, authorization: basic("shop+client:p%3Ass%2Bw%25rd", scheme) },
        "grant_type=client_credentials",
      );
      expect(result).toEqual({
        ok: true,
        request: {
          clientId: "shop client",
          clientSecret: "p:ss+w%rd",
          grantType: "client_credentials",
          audience: undefined,
          basic: true,
        },
      });
    }
  });

  it.each([
    ["no credentials", "Basic"],
    ["an empty client id", basic(":s3cret")],
    ["an empty secret", basic("shop:")],
    ["no colon", basic("shop")],
    ["a broken escape", basic("shop:%zz")],
    ["text that is no base64", "Basic !!!"],
  ])("refuses Basic with %s as malformed, with a Basic challenge", (_what, authorization) => {
    expect(refusal({ "content-type": FORM, authorization }, "grant_type=client_credentials")).toEqual({
      status: 401,
      error: "invalid_client",
      description: "The HTTP Basic credentials are malformed",
      basicChallenge: true,
    });
  });

  it("refuses another authentication scheme at the token endpoint, and Basic where it is switched off", () => {
    expect(refusal({ "content-type": FORM, authorization: "Bearer abc" }, VALID)).toEqual({
      status: 401,
      error: "invalid_client",
      description: "Only HTTP Basic client authentication is supported",
      basicChallenge: true,
    });
    expect(
      refusal(
        { "content-type": FORM, authorization: basic("shop:s3cret") },
        "grant_type=client_credentials",
        {
          basicAllowed: false,
        },
      ),
    ).toEqual({
      status: 401,
      error: "invalid_client",
      description: "HTTP Basic client authentication is not supported",
      basicChallenge: false,
    });
  });

  it("refuses two authentication methods in one request (RFC 6749 §2.3), and a form client_id that differs", () => {
    const authorization = basic("shop:s3cret");
    expect(refusal({ "content-type": FORM, authorization }, VALID).description).toBe(
      "Send the client credentials either with HTTP Basic or in the form, not both",
    );
    expect(
      refusal({ "content-type": FORM, authorization }, "grant_type=client_credentials&client_id=other")
        .description,
    ).toBe("The client_id in the form differs from the HTTP Basic one");
    const same = parse(
      { "content-type": FORM, authorization },
      "grant_type=client_credentials&client_id=shop",
    );
    expect(same.ok && same.request.basic).toBe(true);
  });

  it("refuses credentials in the form where only Basic is accepted, with a Basic challenge", () => {
    expect(refusal({ "content-type": FORM }, VALID, { formCredentialsAllowed: false })).toEqual({
      status: 401,
      error: "invalid_client",
      description: "Client credentials in the request body are not accepted: use HTTP Basic",
      basicChallenge: true,
    });
  });

  describe("under the JSON-only fault", () => {
    const json = { "content-type": "application/json" };

    it("reads a JSON object's string members", () => {
      const result = parse(
        json,
        JSON.stringify({
          grant_type: "client_credentials",
          client_id: "shop",
          client_secret: "s3cret",
          x: 1,
        }),
        { jsonOnly: true },
      );
      expect(result.ok && result.request).toMatchObject({ clientId: "shop", clientSecret: "s3cret" });
    });

    it.each([
      [{ "content-type": FORM }, VALID, "The Content-Type must be application/json"],
      [json, "{", "The request body is not valid JSON"],
      [json, "[]", "The request body must be a JSON object"],
      [json, "null", "The request body must be a JSON object"],
      [
        json,
        '{"grant_type":"client_credentials","client_id":7,"client_secret":"s"}',
        "The parameter client_id must be a string",
      ],
    ])("refuses %j %s", (headers, text, description) => {
      expect(refusal(headers, text, { jsonOnly: true })).toMatchObject({ status: 400, description });
    });
  });
});

describe("the token fault predicates", () => {
  it("hasEmptyParameter: a known parameter sent without a value; unknown ones do not count", () => {
    expect(hasEmptyParameter(body(`${VALID}&scope=`))).toBe(true);
    expect(hasEmptyParameter(body(`${VALID}&x=`))).toBe(false);
    expect(hasEmptyParameter(body(VALID))).toBe(false);
    expect(hasEmptyParameter(body(""))).toBe(false);
  });

  it("lacksParameter: grant_type always, the credentials only without a Basic header", () => {
    expect(lacksParameter(body("client_id=a&client_secret=b"), undefined)).toBe(true);
    expect(lacksParameter(body("grant_type=client_credentials&client_id=a"), undefined)).toBe(true);
    expect(lacksParameter(body("grant_type=client_credentials"), "basic eDp5")).toBe(false);
    expect(lacksParameter(body("grant_type=client_credentials"), "Bearer eDp5")).toBe(true);
    expect(lacksParameter(body(VALID), undefined)).toBe(false);
  });

  it("hasLongValue: past 1,000 characters in a value or the Authorization header, not at 1,000", () => {
    expect(hasLongValue(body(`a=${"x".repeat(1_000)}`), "y".repeat(1_000))).toBe(false);
    expect(hasLongValue(body(`a=${"x".repeat(1_001)}`), undefined)).toBe(true);
    expect(hasLongValue(body(VALID), "y".repeat(1_001))).toBe(true);
    // %41 is one character once decoded: 1,000 of them are not past the limit.
    expect(hasLongValue(body(`a=${"%41".repeat(1_000)}`), undefined)).toBe(false);
  });

  it("hasUnknownParameter: anything but the five parameters and RFC 8707's resource", () => {
    expect(hasUnknownParameter(body(`${VALID}&audience=a&scope=b&resource=https%3A%2F%2Fapi`))).toBe(false);
    expect(hasUnknownParameter(body(`${VALID}&GRANT_TYPE=x`))).toBe(true);
    expect(hasUnknownParameter(body(""))).toBe(false);
  });
});
