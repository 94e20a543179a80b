import type { ValidateFunction } from "ajv/dist/2020.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { completeEventSchema, toJsonSchema } from "../../domain/index.ts";
import { MAX_REFERENCE_TAIL, REFERENCE_STEM_SLOT, wideEventArbitrary } from "../../generators/index.ts";

/** The exported JSON Schema, read by ajv: an oracle independent of the zod schema the sandbox uses. */
const exported: ValidateFunction = new Ajv2020({ strict: true, validateFormats: false }).compile(
  toJsonSchema("event", "input"),
);
const STEM = "eah-fz-c0000000-00001-";

function sample(seed: number, numRuns = 600) {
  return fc
    .sample(wideEventArbitrary(), { seed, numRuns })
    .map((event) => JSON.parse(JSON.stringify(event).replace(REFERENCE_STEM_SLOT, STEM)) as typeof event);
}

describe("wideEventArbitrary: valid events from the whole space the spec allows", () => {
  it("every event is valid by the exported JSON Schema and by the complete zod schema", () => {
    for (const event of sample(1)) {
      expect(exported(event), JSON.stringify(exported.errors)).toBe(true);
      expect(completeEventSchema.safeParse(event).success, JSON.stringify(event)).toBe(true);
    }
  });

  it("reaches the corners real clients reach, often enough to find each in a few dozen runs", () => {
    const events = sample(2);
    const share = (test: (event: (typeof events)[number]) => boolean) =>
      events.filter(test).length / events.length;
    const local = (event: (typeof events)[number]) => event.customer.email.split("@")[0] as string;
    expect(share((e) => local(e).includes("+"))).toBeGreaterThan(0.1);
    expect(share((e) => local(e).includes("."))).toBeGreaterThan(0.1);
    expect(share((e) => [...local(e)].some((char) => (char.codePointAt(0) ?? 0) > 0x7f))).toBeGreaterThan(
      0.1,
    );
    expect(share((e) => [...e.transaction.reference].length > 64)).toBeGreaterThan(0.1);
    expect(share((e) => e.transaction.reference.includes("'"))).toBeGreaterThan(0.1);
    expect(share((e) => /\p{Extended_Pictographic}/u.test(e.system))).toBeGreaterThan(0.1);
    expect(share((e) => /\p{Extended_Pictographic}/u.test(e.transaction.reference))).toBeGreaterThan(0.1);
    expect(share((e) => /-02-29T/.test(e.transaction.date))).toBeGreaterThan(0);
    expect(share((e) => e.transaction.date.startsWith("9999-"))).toBeGreaterThan(0);
  });

  it("keeps within what every reading allows: 64-octet local parts, example domains, 1970 to 9999", () => {
    for (const event of sample(3)) {
      const [local, domain] = event.customer.email.split("@") as [string, string];
      expect(new TextEncoder().encode(local).length).toBeLessThanOrEqual(64);
      expect(["example.com", "example.net", "example.org"]).toContain(domain);
      const year = Number(event.transaction.date.slice(0, 4));
      expect(year).toBeGreaterThanOrEqual(1970);
      expect(Number.isNaN(Date.parse(event.transaction.date))).toBe(false);
      // The bound is in characters as a user types them: an emoji with a skin tone is one.
      const graphemes = [...new Intl.Segmenter().segment(event.transaction.reference)].length;
      expect(graphemes).toBeLessThanOrEqual(STEM.length + MAX_REFERENCE_TAIL);
      expect(event.type).toBe("checkout");
      expect(event.system.length).toBeGreaterThan(0);
    }
  });

  it("leaves the stem slot at the start of every reference, and uses the channels given", () => {
    for (const event of fc.sample(wideEventArbitrary({ channels: ["chl-given"] }), {
      seed: 4,
      numRuns: 50,
    })) {
      expect(event.transaction.reference.startsWith(REFERENCE_STEM_SLOT)).toBe(true);
      expect(event.channel.id).toBe("chl-given");
    }
  });

  it("is the same for the same seed", () => {
    expect(sample(5, 20)).toEqual(sample(5, 20));
  });
});
