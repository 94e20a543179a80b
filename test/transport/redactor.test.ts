import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { Redactor, Secret } from "../../contracts/index.ts";
import { UndecidableError } from "../../core/index.ts";
import { createEventGenerator } from "../../generators/index.ts";
import { decodedHits } from "../support/decoded-oracle.ts";
import { secretEncodings } from "../support/echo-server.ts";

const hex = (text: string) => Buffer.from(text).toString("hex");
/** The base64 of `text` after `offset` bytes of something else: the value at another alignment of the stream. */
const base64At = (text: string, offset: number, encoding: "base64" | "base64url" = "base64") =>
  Buffer.from(`${"#".repeat(offset)}${text}`).toString(encoding);
const formOf = (text: string) => new URLSearchParams({ v: text }).toString().slice(2);

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

  describe("decodes until nothing changes", () => {
    const secret = 's3cr/t+é "long" %41';
    const own = new Redactor().add(secret, "<S>").addTokenParams({ api_key: "ak-9f2c/+=é" });
    const form = `grant_type=client_credentials&client_secret=${formOf(secret)}&api_key=${formOf("ak-9f2c/+=é")}`;
    const cases: Record<string, string> = {
      "percent-encoded twice": encodeURIComponent(encodeURIComponent(form)),
      "percent-encoded three times": encodeURIComponent(encodeURIComponent(encodeURIComponent(form))),
      "hex, lower case": hex(form),
      "hex, capitals": hex(form).toUpperCase(),
      "hex after an odd number of digits": `7${hex(form)}`,
      "\\xHH bytes": [...Buffer.from(form)].map((b) => `\\x${b.toString(16).padStart(2, "0")}`).join(""),
      "base64 at offset 0": base64At(form, 0),
      "base64 at offset 1": base64At(form, 1),
      "base64 at offset 2": base64At(form, 2),
      "base64url at offset 1": base64At(form, 1, "base64url"),
      "base64url at offset 2, unpadded": base64At(form, 2, "base64url").replace(/=+$/, ""),
      "base64 after other base64 letters": `token${base64At(form, 0)}`,
      "base64 of the percent-encoded form": base64At(encodeURIComponent(form), 1),
      "hex of base64": hex(base64At(form, 2)),
      "base64 of hex": base64At(hex(form), 1),
      "JSON-escaped percent-encoded twice": JSON.stringify(encodeURIComponent(encodeURIComponent(form))),
      "percent-encoded base64": encodeURIComponent(base64At(form, 1)),
    };
    for (const [name, encoded] of Object.entries(cases)) {
      it(`hides the secret and the token parameter in a form echoed ${name}`, () => {
        const shown = own.redact(`echo: ${encoded} :end`);
        expect(decodedHits(shown, [secret, formOf(secret), "ak-9f2c/+=é", formOf("ak-9f2c/+=é")])).toEqual(
          [],
        );
        expect(shown).toMatch(/^echo: .*<(S|TOKEN_PARAM:api_key)>.* :end$/);
      });
    }

    it("hides a token cut anywhere inside base64 and hex", () => {
      const token = `opaque-${"5f0c9a7e3b21d4c8".repeat(3)}`;
      const tokens = new Redactor().addToken(token, "<ACCESS_TOKEN>");
      for (const encoded of [
        base64At(`Bearer ${token}`, 1),
        hex(token.slice(10, 30)),
        base64At(token.slice(20), 2),
      ]) {
        const shown = tokens.redact(`x ${encoded} y`);
        const windows = Array.from({ length: token.length - 7 }, (_, k) => token.slice(k, k + 8));
        expect(decodedHits(shown, windows), encoded).toEqual([]);
      }
    });

    it("leaves ordinary evidence as it was: 300 events, their base64 letters and hex digits included", () => {
      const events = createEventGenerator({ seed: 7 }).take(300);
      const tokens = new Redactor()
        .add("Sx9kP2qL7mZ4vR8tW", "<CLIENT_SECRET>")
        .addBasic("client-1", "Sx9kP2qL7mZ4vR8tW")
        .addToken(`opaque-${"5f0c9a7e3b21d4c8".repeat(3)}`, "<ACCESS_TOKEN>");
      for (const event of events) {
        const text = JSON.stringify(event);
        expect(tokens.untrusted(text)).toBe(text);
      }
    });

    it("shows nothing of a text built with more distinct decodings than it reads, decoys burying an echo", () => {
      const decoys = [
        "\\u0041",
        "%41",
        "a+b",
        "\\x41",
        "4142434445464748",
        "QUJDREVGR0hJSktM",
        "%2541",
        "%5Cu0041",
      ];
      const buried = `${decoys.join(" ")} %5Cx41 \\\\x41 %252541 ${encodeURIComponent(encodeURIComponent(form))}`;
      expect(own.untrusted(buried)).toBe("<NOT SHOWN: decodes more ways than redaction reads>");
      // Ordinary text with a few of them is searched as usual.
      expect(own.untrusted(`${decoys.slice(0, 4).join(" ")} ${secret}`)).toMatch(/<S>$/);
    });

    it("looks inside hex and base64 for secrets of 4 characters or more, where a shorter one is chance", () => {
      const short = new Redactor().add("ven", "<S>").add("tsMo", "<T>");
      expect(short.redact(base64At("events", 0))).toBe(base64At("events", 0));
      expect(short.redact(base64At("eventsMore", 0))).not.toContain(base64At("eventsMore", 0).slice(4, 12));
      expect(short.redact("events")).toBe("e<S>ts");
    });
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

  it("refuses a token longer than it can hide, and tokens past what it hides in all, as could-not-decide", () => {
    const own = new Redactor({ tokenChars: 100, tokenTextChars: 1_000 });
    expect(own.tokenRefusal("t".repeat(101))).toBe(
      "has 101 characters, more than the 100 the harness can hide in its reports",
    );
    expect(() => own.addToken("t".repeat(101), "<ACCESS_TOKEN>")).toThrow(UndecidableError);
    const tokens = Array.from({ length: 10 }, (_, n) => `${n}`.padEnd(100, "abcdefghij"));
    for (const token of tokens) own.addToken(token, "<ACCESS_TOKEN>");
    // The same token again costs nothing; a new one would pass the total.
    expect(own.tokenRefusal(tokens[3] as string)).toBeUndefined();
    expect(own.tokenRefusal("z".repeat(20))).toMatch(/past 1,000 characters/);
    expect(() => own.addToken("z".repeat(20), "<ACCESS_TOKEN>")).toThrow(
      /a token the target issued would take/,
    );
    expect(own.redact(`a ${tokens[9]?.slice(40, 60)} b`)).toBe("a <ACCESS_TOKEN> b");
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
