import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { challengesOf, parseChallenges } from "../../../contracts/probe/auth-challenges.ts";

/** A challenge as plain data, for comparing what was parsed with what was meant. */
function plain(field: string) {
  return parseChallenges(field).map((challenge) => ({
    scheme: challenge.scheme,
    ...(challenge.token68 === undefined ? {} : { token68: challenge.token68 }),
    params: Object.fromEntries(challenge.params),
  }));
}

describe("parseChallenges", () => {
  it("reads RFC 9110 §11.6.1's own example: two challenges, an escaped quote, a comma-separated param list", () => {
    expect(plain('Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple"')).toEqual([
      { scheme: "Newauth", params: { realm: "apps", type: "1", title: 'Login to "apps"' } },
      { scheme: "Basic", params: { realm: "simple" } },
    ]);
  });

  it("tells a token68 from an auth-param, padding included", () => {
    expect(plain('Negotiate YIIBhg+/9==, Bearer error="invalid_token"')).toEqual([
      { scheme: "Negotiate", token68: "YIIBhg+/9==", params: {} },
      { scheme: "Bearer", params: { error: "invalid_token" } },
    ]);
    expect(plain("Bearer error=invalid_token")).toEqual([
      { scheme: "Bearer", params: { error: "invalid_token" } },
    ]);
  });

  it("splits nothing on a comma inside a quoted string", () => {
    expect(plain('Basic realm="api, Bearer error=invalid_token", charset="UTF-8"')).toEqual([
      { scheme: "Basic", params: { realm: "api, Bearer error=invalid_token", charset: "UTF-8" } },
    ]);
  });

  it("reads no challenge out of a quoted string, escaped quotes and all", () => {
    expect(challengesOf('Basic realm="Bearer error=\\"invalid_token\\""', "bearer")).toEqual([]);
  });

  it("takes schemes and parameter names case-insensitively, and bare schemes, empty elements and whitespace", () => {
    expect(plain(' ,Negotiate,  ,bEaReR   ERROR = "invalid_token" ,\tError_Description="x",,Basic')).toEqual([
      { scheme: "Negotiate", params: {} },
      { scheme: "bEaReR", params: { error: "invalid_token", error_description: "x" } },
      { scheme: "Basic", params: {} },
    ]);
    expect(challengesOf('Basic realm="a", BEARER realm="b"', "bearer")).toHaveLength(1);
  });

  it("skips what the grammar does not allow, and never reads it as a challenge", () => {
    expect(plain('"Bearer" error="invalid_token", =x, Bearer realm="ok"')).toEqual([
      { scheme: "Bearer", params: { realm: "ok" } },
    ]);
    expect(plain('Bearer realm="unterminated, Basic realm="x"')).toEqual([
      { scheme: "Bearer", params: { realm: "unterminated, Basic realm=" } },
    ]);
    expect(plain("")).toEqual([]);
  });

  it("keeps the first of a repeated parameter", () => {
    expect(plain('Bearer error="invalid_token", error="insufficient_scope"')).toEqual([
      { scheme: "Bearer", params: { error: "invalid_token" } },
    ]);
  });

  // The oracle is the generated structure itself: it is written out by the grammar, then read back.
  it("reads back any list of challenges written by RFC 9110's grammar, joined on one line", () => {
    const token = fc.stringMatching(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,12}$/);
    const quotable = fc.stringMatching(/^[ -~\t]{0,20}$/);
    const param = fc.tuple(
      token,
      fc.oneof(
        token.map((v) => ({ v, quoted: false })),
        quotable.map((v) => ({ v, quoted: true })),
      ),
    );
    const challenge = fc.record({
      scheme: token,
      body: fc.oneof(
        fc.constant({ kind: "none" as const }),
        fc.stringMatching(/^[A-Za-z0-9\-._~+/]{1,16}={0,2}$/).map((t) => ({ kind: "token68" as const, t })),
        fc
          .uniqueArray(param, { minLength: 1, maxLength: 4, selector: ([name]) => name.toLowerCase() })
          .map((params) => ({ kind: "params" as const, params })),
      ),
      space: fc.constantFrom(" ", "  ", "\t"),
      comma: fc.constantFrom(", ", ",", " , ", ",\t"),
    });
    fc.assert(
      fc.property(fc.array(challenge, { minLength: 1, maxLength: 4 }), (challenges) => {
        const written = challenges
          .map(({ scheme, body, space, comma }) => {
            if (body.kind === "none") return scheme;
            if (body.kind === "token68") return `${scheme}${space}${body.t}`;
            const params = body.params.map(
              ([name, { v, quoted }]) =>
                `${name}=${quoted ? `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"` : v}`,
            );
            return `${scheme}${space}${params.join(comma)}`;
          })
          .join(", ");
        const expected = challenges.map(({ scheme, body }) => ({
          scheme,
          ...(body.kind === "token68" ? { token68: body.t } : {}),
          params:
            body.kind === "params"
              ? Object.fromEntries(body.params.map(([name, { v }]) => [name.toLowerCase(), v]))
              : {},
        }));
        expect(plain(written)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});
