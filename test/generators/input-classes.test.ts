import { domainToASCII } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { eventSchemas } from "../../domain/index.ts";
import type { EventInput, InputClass } from "../../generators/index.ts";
import {
  calendarClasses,
  channelClasses,
  classKey,
  createInputSpace,
  emailClasses,
  REFERENCE_STEM_SLOT,
  stringClasses,
} from "../../generators/index.ts";

/** A class's cover and a sample of its search, with the sender's stem in place. */
function inputs(cls: InputClass<EventInput>, seed = 1): EventInput[] {
  const sample = fc.sample(cls.arbitrary, { seed, numRuns: 40 });
  return [...cls.cover, ...sample].map((input) => ({
    ...input,
    body: input.body.replaceAll(REFERENCE_STEM_SLOT, "eah-test-"),
  }));
}

const parsed = (input: EventInput) => JSON.parse(input.body) as Record<string, Record<string, unknown>>;
const octets = (text: string) => new TextEncoder().encode(text).length;

describe("the input space's classes", () => {
  it("every class has boundaries, and each key is unique in its check", () => {
    const space = createInputSpace();
    const events = [
      space.valid,
      space.silent,
      space.types,
      space.dates,
      space.email,
      space.strings,
      space.calendar,
      space.channelId,
      space.body,
      space.envelope,
      space.jsonGrammar,
    ];
    for (const classes of events) {
      const keys = classes.map(classKey);
      expect(new Set(keys).size, keys.join(" ")).toBe(keys.length);
      for (const cls of classes) expect(cls.cover.length, classKey(cls)).toBeGreaterThan(0);
    }
  });

  it("e-mail: every address all readings take is one the production schema accepts, within RFC 5321's lengths", () => {
    for (const cls of emailClasses().filter((c) => c.expect === "accepted")) {
      for (const input of inputs(cls)) {
        const email = String(parsed(input).customer?.email);
        const at = email.lastIndexOf("@");
        expect(octets(email.slice(0, at)), email).toBeLessThanOrEqual(64);
        expect(octets(email), email).toBeLessThanOrEqual(254);
        // IDNA 2008 (through WHATWG URL's domainToASCII) takes every domain, U-labels included.
        const ascii = domainToASCII(email.slice(at + 1));
        expect(ascii, email).not.toBe("");
        for (const label of ascii.split(".")) expect(label.length, email).toBeLessThanOrEqual(63);
        expect(eventSchemas.production.safeParse(parsed(input)).success, email).toBe(true);
      }
    }
  });

  it("e-mail: no string of the refused class is an address on the lenient schema's reading", () => {
    const [refused] = emailClasses().filter((c) => c.expect === "refused");
    for (const input of inputs(refused as InputClass<EventInput>))
      expect(eventSchemas.lenient.safeParse(parsed(input)).success, input.what).toBe(false);
  });

  it("calendar: accepted dates exist (Date.UTC gives the same day back), refused ones do not or are past the day", () => {
    const day = (date: string) => {
      const [y, m, d] = date.slice(0, 10).split("-").map(Number) as [number, number, number];
      const back = new Date(Date.UTC(y, m - 1, d));
      return back.getUTCFullYear() === y && back.getUTCMonth() === m - 1 && back.getUTCDate() === d;
    };
    for (const cls of calendarClasses()) {
      for (const input of inputs(cls)) {
        const date = String(parsed(input).transaction?.date);
        const schema = eventSchemas.lenient.safeParse(parsed(input)).success;
        if (cls.expect === "accepted") {
          expect(day(date) && schema, date).toBe(true);
          expect(date).toMatch(/^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z$/);
        }
        if (cls.expect === "refused") expect(schema, date).toBe(false);
      }
    }
  });

  it("strings: each graphic category class holds only characters of that category (after the letter a)", () => {
    // Each value is the category's characters, or one of them behind the letter a.
    const categories: Record<string, RegExp> = {
      letters: /^\p{L}+$/u,
      marks: /^[\p{L}\p{M}]+$/u,
      numbers: /^a?\p{N}+$/u,
      punctuation: /^a?\p{P}+$/u,
      symbols: /^a?\p{S}+$/u,
      "space-separators": /^a?\p{Zs}+$/u,
    };
    for (const cls of stringClasses().filter((c) => c.field === "system" && c.name in categories)) {
      for (const input of inputs(cls)) {
        const system = String(parsed(input).system);
        expect(system, `${cls.name}: ${JSON.stringify(system)}`).toMatch(categories[cls.name] as RegExp);
        expect(eventSchemas.complete.safeParse(parsed(input)).success).toBe(true);
      }
    }
  });

  it("channel ids: the broken prefixes never start with chl-, and the configured channel's tail is kept", () => {
    const [broken] = channelClasses({ channels: ["chl-shop-7"] }).filter((c) => c.name === "prefix-broken");
    for (const input of inputs(broken as InputClass<EventInput>)) {
      const id = String(parsed(input).channel?.id);
      expect(id.startsWith("chl-"), id).toBe(false);
    }
    // Enough draws that a prefix without its hyphen meets a tail that brings one ("chl" + "-x"): 1 in about 400.
    const drawn = fc.sample((broken as InputClass<EventInput>).arbitrary, { seed: 7, numRuns: 5_000 });
    const valid = drawn
      .map((input) => String(parsed(input).channel?.id))
      .filter((id) => id.startsWith("chl-"));
    expect(valid).toEqual([]);
    expect((broken as InputClass<EventInput>).cover.map((input) => parsed(input).channel?.id)).toContain(
      "CHL-shop-7",
    );
  });
});
