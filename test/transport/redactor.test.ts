import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { Redactor, Secret } from "../../contracts/index.ts";
import { secretEncodings } from "../support/echo-server.ts";

describe("Redactor", () => {
  const secret = "s3cr3t/with+special=chars";
  const redactor = new Redactor().add(secret, "<CLIENT_SECRET>").addBasic("client-1", secret);

  it("hides a secret raw, URL-encoded, form-encoded and inside HTTP Basic credentials", () => {
    const basic = Buffer.from(`client-1:${secret}`).toString("base64");
    const text = [
      secret,
      encodeURIComponent(secret),
      new URLSearchParams({ s: secret }).toString(),
      `Basic ${basic}`,
    ].join(" | ");
    expect(redactor.redact(text)).toBe(
      "<CLIENT_SECRET> | <CLIENT_SECRET> | s=<CLIENT_SECRET> | Basic <BASIC_CREDENTIALS>",
    );
  });

  it("hides each token parameter's value behind its name, raw, percent-encoded and base64-encoded", () => {
    const value = "api key/+é=1";
    const own = new Redactor().addTokenParams({ api_key: value, org: "" });
    const forms = [
      value,
      encodeURIComponent(value),
      Buffer.from(value).toString("base64"),
      Buffer.from(value).toString("base64url"),
    ];
    expect(own.redact(forms.join(" | "))).toBe(Array(4).fill("<TOKEN_PARAM:api_key>").join(" | "));
    // An empty value hides nothing.
    expect(own.redact("org= and more")).toBe("org= and more");
  });

  it("hides a secret with a quote, a backslash, a slash and non-ASCII in every encoding a server may echo", () => {
    const hard = 'q7"R\\v/é +%Zx';
    const own = new Redactor().add(hard, "<CLIENT_SECRET>").addBasic("echo-client", hard);
    for (const [encoding, form] of Object.entries(secretEncodings("echo-client", hard))) {
      const redacted = own.redact(`before ${form} after`);
      expect(redacted, encoding).toMatch(/^before <(CLIENT_SECRET|BASIC_CREDENTIALS)> after$/);
    }
  });

  it("reads hex escapes in either case and encodings inside each other", () => {
    const own = new Redactor().add("a/b c", "<S>");
    expect(own.redact("\\u0061\\u002F\\u0062\\u0020\\u0063")).toBe("<S>");
    expect(own.redact("a%2fb+c and a%2Fb%20c")).toBe("<S> and <S>");
    // A URL inside JSON, and JSON inside a URL.
    expect(own.redact('{"u":"x?s=a%2Fb+c"}')).toBe('{"u":"x?s=<S>"}');
    expect(own.redact("s=a%5Cu002Fb%20c")).toBe("s=<S>");
  });

  it("hides a secret of any length, one character included, and only as whole matches of it", () => {
    const short = new Redactor().add("e", "<S>");
    expect(short.redact("events")).toBe("<S>v<S>nts");
    expect(short.redact("\\u0065")).toBe("<S>");
    expect(new Redactor().add("wrong", "<S>").redact("wron g")).toBe("wron g");
  });

  it("replaces in one pass, so a placeholder is never redacted again", () => {
    const own = new Redactor().add("C", "<CLIENT_SECRET>").add("SECRET", "<X>");
    expect(own.redact("C SECRET")).toBe("<CLIENT_SECRET> <X>");
  });

  it("hides anything shaped like a JWS, even fragments of one", () => {
    expect(
      redactor.redact(
        "Bearer eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl and eyJhbGciOiJub25lIn0.eyJ4IjoxfQ.",
      ),
    ).toBe("Bearer <ACCESS_TOKEN> and <ACCESS_TOKEN>");
  });

  it("hides every run of 8 or more characters of a token, so a truncated opaque token shows at most 7", () => {
    const token = `opaque-${"5f0c9a7e3b21d4c8".repeat(3)}`;
    const own = new Redactor().addToken(token, "<ACCESS_TOKEN>");
    expect(own.redact(`Bearer ${token.slice(0, 47)}`)).toBe("Bearer <ACCESS_TOKEN>");
    expect(own.redact(`x${token.slice(20, 28)}y ${token.slice(0, 7)}`)).toBe(
      `x<ACCESS_TOKEN>y ${token.slice(0, 7)}`,
    );
    expect(own.redact(JSON.stringify({ authorization: `Bearer ${token}` }))).toBe(
      '{"authorization":"Bearer <ACCESS_TOKEN>"}',
    );
  });

  it("gives a known token its own placeholder, a JWT included", () => {
    const jwt = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl";
    const own = new Redactor().addToken(jwt, "<OLD_ACCESS_TOKEN>");
    expect(own.redact(`Bearer ${jwt}`)).toBe("Bearer <OLD_ACCESS_TOKEN>");
  });

  it("quotes only the start of a long text, and hides a secret the cut runs through whole", () => {
    const own = new Redactor().add("hunter2-hunter2", "<S>");
    const text = `${"x".repeat(95)}hunter2%2Dhunter2${"y".repeat(1_000_000)}`;
    expect(own.untrustedPrefix(text, 100)).toEqual({ text: `${"x".repeat(95)}<S>`, cut: true });
    expect(own.untrustedPrefix("short", 100)).toEqual({ text: "short", cut: false });
  });

  it("untrusted() makes controls visible, then hides secrets, one made of escapes included", () => {
    const own = new Redactor().add("\\n", "<S>").add("tab\there", "<T>");
    expect(own.untrusted("a\u001b[2Jb")).toBe("a\\x1b[2Jb");
    expect(own.untrusted("x\ny")).toBe("x<S>y");
    expect(own.untrusted("tab\there")).toBe("<T>");
  });
});

describe("Secret", () => {
  it("prints as [redacted] however it is printed, unless revealed", () => {
    const secret = new Secret("hunter2-hunter2");
    expect(`${secret}`).toBe("[redacted]");
    expect(JSON.stringify({ secret })).toBe('{"secret":"[redacted]"}');
    expect(inspect({ secret })).not.toContain("hunter2");
    expect(secret.reveal()).toBe("hunter2-hunter2");
  });
});
