import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { InputClass, TokenFormInput, TokenRequestShape } from "../../generators/index.ts";
import { swapCase, tokenFieldClasses, tokenFormClasses } from "../../generators/index.ts";

const POST: TokenRequestShape = {
  via: "client_secret_post",
  fields: [
    ["grant_type", "client_credentials"],
    ["client_id", "shop-Client"],
    ["client_secret", "s3Cret-x"],
    ["audience", "https://api.example.com"],
  ],
  clientId: "shop-Client",
  clientSecret: "s3Cret-x",
  secrets: new Set(["client_secret"]),
};

const BASIC: TokenRequestShape = {
  via: "client_secret_basic",
  fields: [["grant_type", "client_credentials"]],
  clientId: "shop-Client",
  clientSecret: "s3Cret-x",
  secrets: new Set(),
};

function byName(classes: readonly InputClass<TokenFormInput>[], field: string, name: string) {
  const found = classes.find((c) => c.field === field && c.name === name);
  if (found === undefined) throw new Error(`no class ${field}/${name}`);
  return found;
}

/** The form as an independent decoder reads it: every parameter with all its values. */
const decoded = (input: TokenFormInput) => {
  const params = new URLSearchParams(input.body);
  return [...new Set(params.keys())].map((name) => [name, params.getAll(name)] as const);
};

/** An HTTP Basic header's id and secret, decoded by hand (base64, then the form encoding RFC 6749 §2.3.1 asks). */
function basicPair(header: string | undefined): [string, string] {
  const match = /^Basic (.*)$/.exec(header ?? "");
  const text = Buffer.from(match?.[1] ?? "", "base64").toString("utf8");
  const colon = text.indexOf(":");
  const part = (s: string) => decodeURIComponent(s.replaceAll("+", " "));
  return [part(text.slice(0, colon)), part(text.slice(colon + 1))];
}

describe("swapCase", () => {
  it("swaps each letter's case and leaves everything else", () => {
    expect(swapCase("client_Credentials-9")).toBe("CLIENT_cREDENTIALS-9");
    expect(swapCase("Ärger")).toBe("äRGER");
  });

  it("gives the same text back when nothing in it has a case, the empty text included", () => {
    expect(swapCase("1234-_.")).toBe("1234-_.");
    expect(swapCase("")).toBe("");
  });
});

describe("tokenFormClasses", () => {
  it("under client_secret_post: the form's classes, each with the expectation RFC 6749 gives it", () => {
    const classes = tokenFormClasses(POST);
    expect(classes.map((c) => [c.field, c.name, c.expect, c.via])).toEqual([
      ["form", "reordered-and-re-encoded", "accepted", "client_secret_post"],
      ["form", "unknown-parameters", "accepted", "client_secret_post"],
      ["form", "optional-empty", "accepted", "client_secret_post"],
      ["form", "required-empty", "refused", "client_secret_post"],
      ["form", "repeated", "refused", "client_secret_post"],
      ["form", "name-case", "answered", "client_secret_post"],
      ["Content-Type", "media-type-forms", "accepted", "client_secret_post"],
    ]);
  });

  it("sends the only optional parameter empty, and each required one empty in turn", () => {
    const classes = tokenFormClasses(POST);
    const emptied = (name: string) =>
      byName(classes, "form", name).cover.map((input) =>
        decoded(input)
          .filter(([, values]) => values.includes(""))
          .map(([key]) => key),
      );
    expect(emptied("optional-empty")).toEqual([["audience"]]);
    expect(emptied("required-empty")).toEqual([["grant_type"], ["client_id"], ["client_secret"]]);
  });

  it("repeats every parameter the form carries, once with its own value and once with another", () => {
    const cover = byName(tokenFormClasses(POST), "form", "repeated").cover;
    expect(cover).toHaveLength(8);
    const twice = cover.map((input) => decoded(input).find(([, values]) => values.length > 1));
    expect(twice[0]).toEqual(["grant_type", ["client_credentials", "client_credentials"]]);
    expect(twice[1]).toEqual(["grant_type", ["client_credentials", "other"]]);
    expect(twice[7]).toEqual(["audience", ["https://api.example.com", "other"]]);
  });

  it("has no optional-empty class for a form without optional parameters, nor required-empty without required ones", () => {
    const names = tokenFormClasses(BASIC).map((c) => c.name);
    expect(names).not.toContain("optional-empty");
    const none = tokenFormClasses({ ...BASIC, fields: [["scope", "events:write"]] }).map((c) => c.name);
    expect(none).not.toContain("required-empty");
    expect(none).toContain("optional-empty");
  });

  it("names each non-secret parameter in capitals, and never the secret's name", () => {
    const cover = byName(tokenFormClasses(POST), "form", "name-case").cover;
    expect(cover.map((input) => decoded(input).map(([name]) => name))).toEqual([
      ["GRANT_TYPE", "client_id", "client_secret", "audience"],
      ["grant_type", "CLIENT_ID", "client_secret", "audience"],
      ["grant_type", "client_id", "client_secret", "AUDIENCE"],
    ]);
  });

  it("sends the valid form under each spelling of its media type", () => {
    const cover = byName(tokenFormClasses(POST), "Content-Type", "media-type-forms").cover;
    expect(cover.map((input) => input.contentType)).toEqual([
      "Application/X-WWW-Form-URLEncoded",
      "application/x-www-form-urlencoded; charset=UTF-8",
      "application/x-www-form-urlencoded ; charset=utf-8",
      'application/x-www-form-urlencoded;charset="utf-8"',
    ]);
    for (const input of cover)
      expect(Object.fromEntries(new URLSearchParams(input.body))).toEqual({
        grant_type: "client_credentials",
        client_id: "shop-Client",
        client_secret: "s3Cret-x",
        audience: "https://api.example.com",
      });
  });

  it("under HTTP Basic with the target's header: the scheme in other cases, the credentials kept", () => {
    const classes = tokenFormClasses(BASIC, "Basic c2hvcC1DbGllbnQ6czNDcmV0LXg=");
    const scheme = byName(classes, "Authorization", "basic-scheme-case");
    expect(scheme.via).toBe("client_secret_basic");
    expect(scheme.cover.map((input) => input.authorization)).toEqual([
      "basic c2hvcC1DbGllbnQ6czNDcmV0LXg=",
      "BASIC c2hvcC1DbGllbnQ6czNDcmV0LXg=",
      "Basic   c2hvcC1DbGllbnQ6czNDcmV0LXg=",
    ]);
    expect(classes.some((c) => c.name === "basic-scheme-case")).toBe(true);
  });

  it("has no scheme class without the header, nor under client_secret_post", () => {
    expect(tokenFormClasses(BASIC).map((c) => c.name)).not.toContain("basic-scheme-case");
    expect(tokenFormClasses(POST, "Basic eDp5").map((c) => c.name)).not.toContain("basic-scheme-case");
  });

  it("draws from each class's arbitrary only what the class is: the fixed classes draw their cover again", () => {
    for (const cls of tokenFormClasses(POST)) {
      const drawn = fc.sample(cls.arbitrary, { seed: 3, numRuns: 30 });
      for (const input of drawn) {
        expect(input.contentType.toLowerCase()).toContain("application/x-www-form-urlencoded");
        if (cls.name === "name-case" || cls.name === "media-type-forms")
          expect(cls.cover).toContainEqual(input);
      }
    }
  });
});

describe("tokenFieldClasses", () => {
  it("under client_secret_post: every field's classes, with their expectations", () => {
    expect(tokenFieldClasses(POST).map((c) => `${c.field}/${c.name}:${c.expect}`)).toEqual([
      "grant_type/missing:refused",
      "grant_type/case-varied:refused",
      "grant_type/very-long:refused",
      "client_secret/missing:refused",
      "client_secret/case-varied:refused",
      "client_secret/very-long:refused",
      "client_secret/truncated:refused",
      "client_id/missing:refused",
      "client_id/very-long:refused",
      "client_id/case-varied:answered",
      "audience/case-varied:answered",
      "audience/very-long:answered",
    ]);
  });

  it("leaves grant_type out, varies its case without repeating a value, and lengthens it by 8,192, 1,024 and 256", () => {
    const classes = tokenFieldClasses(POST);
    const grants = (name: string) =>
      byName(classes, "grant_type", name).cover.map((input) =>
        new URLSearchParams(input.body).get("grant_type"),
      );
    expect(grants("missing")).toEqual([null]);
    expect(grants("case-varied")).toEqual(["CLIENT_CREDENTIALS", "Client_Credentials"]);
    expect(grants("very-long").map((value) => value?.length)).toEqual([18 + 8_192, 18 + 1_024, 18 + 256]);
    expect(grants("very-long").every((value) => value?.startsWith("client_credentials"))).toBe(true);
  });

  it("under client_secret_post: changes the secret in the form and names each changed secret to hide", () => {
    const classes = tokenFieldClasses(POST);
    const cased = byName(classes, "client_secret", "case-varied").cover;
    expect(cased.map((input) => new URLSearchParams(input.body).get("client_secret"))).toEqual([
      "S3cRET-X",
      "S3CRET-X",
      "s3cret-x",
    ]);
    expect(cased.map((input) => input.hide)).toEqual([["S3cRET-X"], ["S3CRET-X"], ["s3cret-x"]]);
    const truncated = byName(classes, "client_secret", "truncated").cover;
    expect(truncated.map((input) => new URLSearchParams(input.body).get("client_secret"))).toEqual([
      "s3Cret-",
      "3Cret-x",
    ]);
    const missing = byName(classes, "client_secret", "missing").cover;
    expect(new URLSearchParams(missing[0]?.body).has("client_secret")).toBe(false);
    expect(missing[0]?.hide).toEqual([]);
    const noId = byName(classes, "client_id", "missing").cover;
    expect(new URLSearchParams(noId[0]?.body).has("client_id")).toBe(false);
    expect(new URLSearchParams(noId[0]?.body).get("client_secret")).toBe("s3Cret-x");
  });

  it("under HTTP Basic: changes the credentials in the header, leaves the form alone, and names each pair to hide", () => {
    const classes = tokenFieldClasses(BASIC);
    for (const cls of classes.filter((c) => c.field === "client_secret" || c.field === "client_id"))
      for (const input of cls.cover) expect(input.body).toBe("grant_type=client_credentials");
    const [missing] = byName(classes, "client_secret", "missing").cover;
    expect(basicPair(missing?.authorization)).toEqual(["shop-Client", ""]);
    expect(missing?.hideBasic).toEqual([["shop-Client", ""]]);
    const [noId] = byName(classes, "client_id", "missing").cover;
    expect(basicPair(noId?.authorization)).toEqual(["", "s3Cret-x"]);
    expect(noId?.hideBasic).toEqual([["", "s3Cret-x"]]);
    const long = byName(classes, "client_id", "very-long").cover;
    expect(long.map((input) => basicPair(input.authorization)[0].length)).toEqual([
      11 + 8_192,
      11 + 1_024,
      11 + 256,
    ]);
    const [swapped] = byName(classes, "client_id", "case-varied").cover;
    expect(basicPair(swapped?.authorization)).toEqual(["SHOP-cLIENT", "s3Cret-x"]);
  });

  it("leaves out the classes a shape cannot make: truncating a one-character secret, the case of a caseless id, the audience", () => {
    const names = tokenFieldClasses({
      ...POST,
      fields: [
        ["grant_type", "client_credentials"],
        ["client_id", "1234"],
        ["client_secret", "k"],
      ],
      clientId: "1234",
      clientSecret: "k",
    }).map((c) => `${c.field}/${c.name}`);
    expect(names).not.toContain("client_secret/truncated");
    expect(names).not.toContain("client_id/case-varied");
    expect(names.filter((name) => name.startsWith("audience/"))).toEqual([]);
    expect(names).toContain("client_secret/case-varied");
  });

  it("makes the audience capitals and gives it a long path, the rest of the form unchanged", () => {
    const classes = tokenFieldClasses(POST);
    const audience = (name: string) =>
      byName(classes, "audience", name).cover.map((input) =>
        Object.fromEntries(new URLSearchParams(input.body)),
      );
    expect(audience("case-varied")).toEqual([
      {
        grant_type: "client_credentials",
        client_id: "shop-Client",
        client_secret: "s3Cret-x",
        audience: "HTTPS://API.EXAMPLE.COM",
      },
    ]);
    expect(audience("very-long")[0]?.audience).toBe(`https://api.example.com/${"a".repeat(8_192)}`);
  });
});
