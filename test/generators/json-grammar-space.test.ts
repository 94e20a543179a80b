import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { eventSchemas } from "../../domain/index.ts";
import type { EventInput, InputClass } from "../../generators/index.ts";
import { jsonGrammarClasses, REFERENCE_STEM_SLOT } from "../../generators/index.ts";
import { COVER_EVENT } from "../support/cover-event.ts";

function byName(name: string, classes = jsonGrammarClasses()): InputClass<EventInput> {
  const found = classes.find((c) => c.name === name);
  if (found === undefined) throw new Error(`no class ${name}`);
  return found;
}

/** Every string literal of a JSON text, as written between its quotes. */
const literals = (text: string) => [...text.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => match[1] ?? "");

describe("jsonGrammarClasses", () => {
  it("holds the whitespace, escapes and member-order classes of the body, all accepted", () => {
    expect(jsonGrammarClasses().map((c) => [c.field, c.name, c.expect, c.cover.length])).toEqual([
      ["body", "whitespace", "accepted", 4],
      ["body", "escapes", "accepted", 5],
      ["body", "member-order", "accepted", 2],
    ]);
  });

  it("writes the same event in every whitespace form, which JSON.parse reads back", () => {
    const bodies = byName("whitespace").cover.map((input) => input.body);
    for (const body of bodies) expect(JSON.parse(body)).toEqual(COVER_EVENT);
    expect(bodies[0]).toContain('\n  "type": "checkout"');
    expect(bodies[1]).toContain('\r\n\t"type": "checkout"');
    expect(bodies[2]).toContain('"customer" : { "email" : "customer@example.com" } ,');
    expect(bodies[3]?.startsWith(" \r\n\t{")).toBe(true);
    expect(bodies[3]?.endsWith("}\n \t")).toBe(true);
  });

  it("escapes every character of every string as \\uXXXX but the sender's slot, which stays as it is", () => {
    const [, everything] = byName("escapes").cover;
    const body = everything?.body ?? "";
    expect(JSON.parse(body)).toEqual(COVER_EVENT);
    expect(body).toContain(REFERENCE_STEM_SLOT);
    for (const literal of literals(body))
      expect(literal.replace(REFERENCE_STEM_SLOT, ""), literal).toMatch(/^(\\u[0-9a-f]{4})*$/);
    expect(body).toContain('"\\u0074\\u0079\\u0070\\u0065":');
  });

  it("writes an astral character as a surrogate pair of two escapes", () => {
    const [pair, , slash, shortPair, letter] = byName("escapes").cover.map((input) => input.body);
    expect(pair).toContain("\\u0073\\u0068\\u006f\\u0070\\u0020\\ud83d\\uded2");
    expect((JSON.parse(pair ?? "") as { system: string }).system).toBe("shop 🛒");
    expect(shortPair).toContain('"shop \\ud83d\\uded2"');
    expect((JSON.parse(shortPair ?? "") as { system: string }).system).toBe("shop 🛒");
    expect(slash).toContain("\\/");
    expect(slash?.replaceAll("\\/", "").includes("/")).toBe(false);
    expect((JSON.parse(slash ?? "") as { system: string }).system).toBe("shop/backend");
    expect(letter).toContain('"type":"\\u0063heckout"');
    expect(JSON.parse(letter ?? "")).toEqual(COVER_EVENT);
  });

  it("writes members in reverse and in sorted order, in every object, the event unchanged", () => {
    const [reverse, sorted] = byName("member-order").cover.map((input) => JSON.parse(input.body) as object);
    expect(reverse).toEqual(COVER_EVENT);
    expect(Object.keys(reverse ?? {})).toEqual([
      "systemVersion",
      "system",
      "transaction",
      "channel",
      "customer",
      "type",
    ]);
    expect(Object.keys((reverse as typeof COVER_EVENT).transaction)).toEqual(["date", "reference"]);
    expect(Object.keys(sorted ?? {})).toEqual([
      "channel",
      "customer",
      "system",
      "systemVersion",
      "transaction",
      "type",
    ]);
  });

  it("escapes a / in every drawn event it says it does", () => {
    const cls = byName("escapes");
    for (const input of fc
      .sample(cls.arbitrary, { seed: 13, numRuns: 60 })
      .filter((i) => i.what.includes("\\/")))
      expect(input.body, input.what).toContain("\\/");
  });

  it("draws valid events of the production schema in every grammar form, sent as application/json", () => {
    for (const cls of jsonGrammarClasses()) {
      for (const input of fc.sample(cls.arbitrary, { seed: 12, numRuns: 30 })) {
        const event = JSON.parse(input.body.replaceAll(REFERENCE_STEM_SLOT, "eah-test-")) as unknown;
        expect(eventSchemas.production.safeParse(event).success, input.what).toBe(true);
        expect(input.contentType).toBe("application/json");
        expect(input.what.startsWith("a valid event ")).toBe(true);
      }
    }
  });

  it("takes the options' channel and type into the cover event", () => {
    const [input] = byName(
      "member-order",
      jsonGrammarClasses({ channels: ["chl-mine"], type: "order" }),
    ).cover;
    expect(JSON.parse(input?.body ?? "")).toMatchObject({ channel: { id: "chl-mine" }, type: "order" });
  });
});
