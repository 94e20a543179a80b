import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TOKEN_RUN, TokenIndex } from "../../transport/token-index.ts";

/** The characters of `text` inside some 8 characters in a row of a token, found the plain way: String.includes. */
function coveredPlainly(text: string, tokens: readonly string[]): boolean[] {
  const covered = Array.from({ length: text.length }, () => false);
  for (let at = 0; at + TOKEN_RUN <= text.length; at += 1) {
    const window = text.slice(at, at + TOKEN_RUN);
    if (tokens.some((token) => token.includes(window))) covered.fill(true, at, at + TOKEN_RUN);
  }
  return covered;
}

function coveredBy(index: TokenIndex, text: string): boolean[] {
  const covered = Array.from({ length: text.length }, () => false);
  for (const run of index.find(text)) covered.fill(true, run.start, run.end);
  return covered;
}

/** Tokens from a small alphabet share many short runs, the hard case; from a large one, few. */
const tokenOf = (alphabet: string) =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength: TOKEN_RUN + 1, maxLength: 120 });

/** A text made of filler and pieces of the tokens, cut anywhere. */
function textWith(tokens: readonly string[], alphabet: string) {
  const piece = fc.oneof(
    fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 12 }),
    fc
      .tuple(fc.constantFrom(...tokens), fc.nat(), fc.nat())
      .map(([token, a, b]) =>
        token.slice(Math.min(a, b) % token.length, Math.max(a, b) % (token.length + 1)),
      ),
  );
  return fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(""));
}

describe("TokenIndex", () => {
  for (const alphabet of [
    "ab",
    "abc.-_",
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
  ]) {
    it(`finds exactly the characters in 8 or more in a row of a token (alphabet of ${alphabet.length})`, () => {
      fc.assert(
        fc.property(
          fc
            .array(tokenOf(alphabet), { minLength: 1, maxLength: 6 })
            .chain((tokens) => fc.tuple(fc.constant(tokens), textWith(tokens, alphabet))),
          ([tokens, text]) => {
            const index = new TokenIndex();
            for (const token of tokens) index.add(token, "<T>");
            expect(coveredBy(index, text)).toEqual(coveredPlainly(text, tokens));
          },
        ),
        { numRuns: 300 },
      );
    });
  }

  it("gives each run the placeholder of its token, the one registered last for the same token", () => {
    const access = "access-7f3e9c1b5d2a8064";
    const refresh = "refresh-0b8d6e4f2a9c1357";
    const index = new TokenIndex();
    index.add(access, "<ACCESS_TOKEN>");
    index.add(refresh, "<REFRESH_TOKEN>");
    expect(index.find(`a=${access.slice(3, 15)} r=${refresh}`).map((run) => run.placeholder)).toEqual([
      "<ACCESS_TOKEN>",
      "<REFRESH_TOKEN>",
    ]);
    index.add(access, "<OLD_ACCESS_TOKEN>");
    expect(index.find(access)).toEqual([{ start: 0, end: access.length, placeholder: "<OLD_ACCESS_TOKEN>" }]);
    expect(index.chars).toBe(access.length + refresh.length);
  });
});
