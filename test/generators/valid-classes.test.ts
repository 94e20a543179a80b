import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { eventSchemas } from "../../domain/index.ts";
import type { EventInput, InputClass } from "../../generators/index.ts";
import { REFERENCE_STEM_SLOT, validClasses } from "../../generators/index.ts";
import { anyValid } from "../../generators/valid-classes.ts";

type Body = {
  customer: { email: string };
  channel: { id: string };
  transaction: { reference: string; date: string };
  system: string;
  systemVersion: string;
};
const STEM = "eah-test-";
const parsed = (input: EventInput) =>
  JSON.parse(input.body.replaceAll(REFERENCE_STEM_SLOT, STEM)) as Body & Record<string, unknown>;
const graphemes = (text: string) =>
  [...new Intl.Segmenter("en", { granularity: "grapheme" }).segment(text)].length;

function byKey(field: string, classes = validClasses()): InputClass<EventInput> {
  const found = classes.find((c) => c.field === field);
  if (found === undefined) throw new Error(`no class of ${field}`);
  return found;
}

describe("validClasses", () => {
  it("holds one accepted class per documented field drawn wide, and one with every field wide", () => {
    expect(validClasses().map((c) => [c.field, c.name, c.expect])).toEqual([
      ["customer.email", "wide-address", "accepted"],
      ["transaction.reference", "wide-text", "accepted"],
      ["system", "wide-text", "accepted"],
      ["systemVersion", "wide-version", "accepted"],
      ["transaction.date", "wide-date", "accepted"],
      ["event", "every-field-wide", "accepted"],
    ]);
  });

  it("makes only events the production schema accepts, covered or drawn", () => {
    for (const cls of validClasses()) {
      for (const input of [...cls.cover, ...fc.sample(cls.arbitrary, { seed: 20, numRuns: 20 })]) {
        expect(eventSchemas.production.safeParse(parsed(input)).success, input.body).toBe(true);
        expect(input.contentType).toBe("application/json");
      }
    }
  });

  it("covers the longest reference tail the harness takes as valid: 100 characters as a user types them", () => {
    const [longest, ...short] = byKey("transaction.reference").cover.map(
      (input) => parsed(input).transaction.reference,
    );
    const tail = (longest ?? "").slice(STEM.length);
    expect(graphemes(tail)).toBe(100);
    for (const breaker of ["'", '"', "\\", "`", "😀", "é"]) expect(tail).toContain(breaker);
    expect(short).toEqual([`${STEM}'`, `${STEM}\\`, `${STEM}e\u0301`]);
  });

  it("draws reference tails of at most 100 characters behind the sender's stem", () => {
    const cls = byKey("transaction.reference");
    for (const input of fc.sample(cls.arbitrary, { seed: 21, numRuns: 100 })) {
      const reference = parsed(input).transaction.reference;
      expect(reference.startsWith(STEM)).toBe(true);
      expect(graphemes(reference.slice(STEM.length))).toBeLessThanOrEqual(100);
    }
  });

  it("covers each field's boundaries as written, only that field changed from the fixed event", () => {
    const fixed = parsed(byKey("event").cover[0] as EventInput);
    const emails = byKey("customer.email").cover.map((input) => parsed(input));
    expect(emails.map((body) => body.customer.email)).toEqual([
      "o'brien+tag.é@example.com",
      "a.b.c@example.org",
      "Jörg@example.net",
    ]);
    expect({ ...emails[0], customer: fixed.customer }).toEqual(fixed);
    expect(byKey("system").cover.map((input) => parsed(input).system)).toEqual([
      "Kassensystem Süd 🛒 'v2'",
      "レジ",
    ]);
    expect(byKey("systemVersion").cover.map((input) => parsed(input).systemVersion)).toEqual([
      "2030.2030.2030-alpha+exp.sha.5114f85",
      "v1 🚚",
    ]);
    for (const input of byKey("transaction.date").cover) {
      const { date } = parsed(input).transaction;
      expect(new Date(date).toISOString()).toBe(date);
    }
  });

  it("describes each input as a valid event and the field drawn wide", () => {
    expect(byKey("system").cover[0]?.what).toBe("a valid event (system drawn wide)");
    expect(byKey("event").cover[0]?.what).toBe("a valid event");
  });

  it("takes the target's channels into cover and search", () => {
    const classes = validClasses({ channels: ["chl-mine"] });
    for (const cls of classes)
      for (const input of [...cls.cover, ...fc.sample(cls.arbitrary, { seed: 22, numRuns: 5 })])
        expect(parsed(input).channel.id, cls.name).toBe("chl-mine");
  });
});

describe("anyValid", () => {
  it("draws from every valid class", () => {
    const whats = new Set(fc.sample(anyValid(), { seed: 23, numRuns: 300 }).map((input) => input.what));
    expect([...whats].sort()).toEqual([
      "a valid event",
      "a valid event (customer.email drawn wide)",
      "a valid event (system drawn wide)",
      "a valid event (systemVersion drawn wide)",
      "a valid event (transaction.date drawn wide)",
      "a valid event (transaction.reference drawn wide)",
    ]);
  });
});
