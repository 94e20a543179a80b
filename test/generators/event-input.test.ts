import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { eventSchemas } from "../../domain/index.ts";
import type { Json } from "../../generators/event-input.ts";
import {
  coverEvent,
  fieldClass,
  input,
  named,
  plainEvents,
  valueAt,
  without,
  withValue,
} from "../../generators/event-input.ts";
import { REFERENCE_STEM_SLOT, TOKEN_SLOT } from "../../generators/index.ts";
import { COVER_EVENT } from "../support/cover-event.ts";

const EVENT: Json = {
  type: "checkout",
  customer: { email: "a@example.com", name: "Ada" },
  system: "shop",
};

describe("the event input helpers", () => {
  it("marks the token's place with a slot no token or JSON text holds by chance", () => {
    expect(TOKEN_SLOT).toBe("@@EH_TOKEN@@");
  });

  it("input writes the value as JSON text, sent as application/json unless told", () => {
    const made = input("what it is", { a: [1, "x"] });
    expect(made).toEqual({ what: "what it is", body: '{"a":[1,"x"]}', contentType: "application/json" });
    // An undefined argument takes the default: an input without Content-Type sets it to undefined itself.
    expect(input("default", null, undefined).contentType).toBe("application/json");
    expect(input("text", "x", "text/plain").contentType).toBe("text/plain");
  });

  it("withValue replaces a top-level or nested value in a copy, keeping the members' order", () => {
    const top = withValue(EVENT, ["system"], 7);
    expect(JSON.stringify(top)).toBe(
      '{"type":"checkout","customer":{"email":"a@example.com","name":"Ada"},"system":7}',
    );
    const nested = withValue(EVENT, ["customer", "email"], null);
    expect(JSON.stringify(nested)).toBe(
      '{"type":"checkout","customer":{"email":null,"name":"Ada"},"system":"shop"}',
    );
    const added = withValue(EVENT, ["customer", "phone"], "1");
    expect(Object.keys(added.customer as object)).toEqual(["email", "name", "phone"]);
    expect(EVENT).toEqual({
      type: "checkout",
      customer: { email: "a@example.com", name: "Ada" },
      system: "shop",
    });
  });

  it("without removes a top-level or nested member from a copy only", () => {
    expect(without(EVENT, ["type"])).toEqual({
      customer: { email: "a@example.com", name: "Ada" },
      system: "shop",
    });
    expect(without(EVENT, ["customer", "email"])).toEqual({
      type: "checkout",
      customer: { name: "Ada" },
      system: "shop",
    });
    expect(without(EVENT, ["nothing"])).toEqual(EVENT);
    expect(Object.keys(EVENT.customer as object)).toEqual(["email", "name"]);
  });

  it("valueAt reads a top-level or nested value, undefined where there is none", () => {
    expect(valueAt(EVENT, ["system"])).toBe("shop");
    expect(valueAt(EVENT, ["customer", "name"])).toBe("Ada");
    expect(valueAt(EVENT, ["customer", "phone"])).toBeUndefined();
    expect(named(["customer", "email"])).toBe("customer.email");
    expect(named(["system"])).toBe("system");
  });

  it("coverEvent is the same fixed valid event in every run, with the sender's slot in its reference", () => {
    const event = coverEvent();
    expect(event).toEqual(COVER_EVENT);
    expect(coverEvent()).toEqual(event);
    const withStem = JSON.parse(JSON.stringify(event).replace(REFERENCE_STEM_SLOT, "eah-1-")) as unknown;
    expect(eventSchemas.complete.safeParse(withStem).success).toBe(true);
  });

  it("coverEvent takes the target's first channel and its event type", () => {
    expect(coverEvent({ channels: ["chl-a", "chl-b"], type: "order" })).toMatchObject({
      type: "order",
      channel: { id: "chl-a" },
    });
    expect(coverEvent({ channels: [] }).channel).toEqual({ id: "chl-harness-cover" });
  });

  it("plainEvents draws complete valid events of ASCII letters and digits, on the target's channels", () => {
    const drawn = fc.sample(plainEvents({ channels: ["chl-a", "chl-b"] }), { seed: 18, numRuns: 50 });
    for (const event of drawn) {
      const text = JSON.stringify(event).replaceAll(REFERENCE_STEM_SLOT, "eah-1-");
      expect(eventSchemas.complete.safeParse(JSON.parse(text)).success, text).toBe(true);
      expect(["chl-a", "chl-b"]).toContain((event.channel as Json).id);
    }
  });

  it("fieldClass makes its cover from the fixed event and its search from drawn plain events", () => {
    const cls = fieldClass<number>(
      { channels: ["chl-mine"] },
      {
        field: "customer.age",
        name: "ages",
        description: "an age",
        expect: "answered",
        cover: [0, 130],
        values: fc.integer({ min: 1, max: 3 }),
        make: (event, age) => input(`age ${age}`, withValue(event, ["customer", "age"], age)),
      },
    );
    expect({ field: cls.field, name: cls.name, description: cls.description, expect: cls.expect }).toEqual({
      field: "customer.age",
      name: "ages",
      description: "an age",
      expect: "answered",
    });
    expect(cls.cover.map((made) => JSON.parse(made.body) as Json)).toEqual([
      { ...coverEvent({ channels: ["chl-mine"] }), customer: { email: "customer@example.com", age: 0 } },
      { ...coverEvent({ channels: ["chl-mine"] }), customer: { email: "customer@example.com", age: 130 } },
    ]);
    for (const made of fc.sample(cls.arbitrary, { seed: 19, numRuns: 20 })) {
      const body = JSON.parse(made.body) as { customer: { age: number }; channel: { id: string } };
      expect([1, 2, 3]).toContain(body.customer.age);
      expect(body.channel.id).toBe("chl-mine");
    }
  });
});
