import { MIMEType } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { eventSchemas } from "../../domain/index.ts";
import type { EventInput, InputClass } from "../../generators/index.ts";
import { envelopeClasses, REFERENCE_STEM_SLOT, TOKEN_SLOT } from "../../generators/index.ts";

function byName(name: string, classes = envelopeClasses()): InputClass<EventInput> {
  const found = classes.find((c) => c.name === name);
  if (found === undefined) throw new Error(`no class ${name}`);
  return found;
}

/** The body with the sender's stem in place, as the schema of the real service reads it. */
const event = (input: EventInput) =>
  JSON.parse(input.body.replaceAll(REFERENCE_STEM_SLOT, "eah-test-")) as unknown;

describe("envelopeClasses", () => {
  it("holds the envelope's classes by header, with their expectations", () => {
    expect(envelopeClasses().map((c) => [c.field, c.name, c.expect])).toEqual([
      ["Content-Type", "media-type-forms", "accepted"],
      ["Authorization", "scheme-case", "accepted"],
      ["Authorization", "token-spacing", "accepted"],
      ["Accept", "json-accepted", "accepted"],
      ["headers", "unnamed-headers", "accepted"],
      ["Content-Type", "other-json-types", "answered"],
      ["Accept", "json-not-accepted", "answered"],
    ]);
  });

  it("sends a valid event in every input, covered or drawn, so only the envelope is on trial", () => {
    for (const cls of envelopeClasses()) {
      for (const input of [...cls.cover, ...fc.sample(cls.arbitrary, { seed: 6, numRuns: 20 })]) {
        expect(eventSchemas.production.safeParse(event(input)).success, input.what).toBe(true);
        expect(input.body.includes(TOKEN_SLOT)).toBe(false);
      }
    }
  });

  it("writes each accepted Content-Type as a form of application/json in UTF-8, read by WHATWG's MIME parser", () => {
    const types = byName("media-type-forms").cover.map((input) => input.contentType ?? "");
    expect(types).toHaveLength(8);
    for (const type of types) {
      const mime = new MIMEType(type);
      expect(mime.essence, type).toBe("application/json");
      expect([null, "utf-8"], type).toContain(mime.params.get("charset")?.toLowerCase() ?? null);
    }
    expect(types.filter((type) => type !== "application/json")).toEqual(types);
  });

  it("writes the open Content-Types as JSON types with a parameter or a +json suffix, never plain application/json", () => {
    for (const input of byName("other-json-types").cover) {
      const mime = new MIMEType(input.contentType ?? "");
      const plusJson = mime.subtype.endsWith("+json");
      expect(plusJson || [...mime.params.keys()].some((name) => name !== "charset"), input.contentType).toBe(
        true,
      );
    }
  });

  it("varies the Bearer scheme's case and spacing around the token slot, the token in no body", () => {
    expect(byName("scheme-case").cover.map((input) => input.authorization)).toEqual([
      `bearer ${TOKEN_SLOT}`,
      `BEARER ${TOKEN_SLOT}`,
      `BeArEr ${TOKEN_SLOT}`,
    ]);
    expect(byName("token-spacing").cover.map((input) => input.authorization)).toEqual([
      `Bearer  ${TOKEN_SLOT}`,
      `Bearer   ${TOKEN_SLOT}`,
    ]);
    for (const input of byName("scheme-case").cover) expect(input.contentType).toBe("application/json");
  });

  it("sends Accept headers that take JSON as accepted, and others only answered", () => {
    const accepts = (name: string) => byName(name).cover.map((input) => input.headers?.accept);
    expect(accepts("json-accepted")).toEqual([
      "*/*",
      "application/json",
      "application/json, */*;q=0.8",
      "application/*",
      "application/json;q=1.0",
    ]);
    expect(accepts("json-not-accepted")).toEqual(["text/html", "application/xml", "image/png"]);
  });

  it("sends headers the spec does not name in lower case, at documentation addresses only", () => {
    const cover = byName("unnamed-headers").cover;
    expect(cover.map((input) => Object.keys(input.headers ?? {}))).toEqual([
      ["x-request-id"],
      ["user-agent"],
      ["accept-language"],
      ["cache-control"],
      ["x-correlation-id", "x-forwarded-for"],
    ]);
    expect(cover[4]?.headers?.["x-forwarded-for"]).toMatch(/^192\.0\.2\.\d+$/);
    expect(cover[4]?.what).toBe("a valid event with x-correlation-id, x-forwarded-for");
  });

  it("draws only among its cover's envelopes", () => {
    const cls = byName("media-type-forms");
    const covered = cls.cover.map((input) => input.contentType);
    for (const input of fc.sample(cls.arbitrary, { seed: 8, numRuns: 40 }))
      expect(covered).toContain(input.contentType);
  });

  it("uses the options' channel in the cover event", () => {
    const [input] = byName("token-spacing", envelopeClasses({ channels: ["chl-mine"] })).cover;
    expect((JSON.parse(input?.body ?? "") as { channel: unknown }).channel).toEqual({ id: "chl-mine" });
  });
});
