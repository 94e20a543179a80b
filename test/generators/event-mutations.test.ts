import type { ValidateFunction } from "ajv/dist/2020.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { eventSchemas, toJsonSchema } from "../../domain/index.ts";
import type { EventInput } from "../../generators/index.ts";
import {
  dateViolationArbitrary,
  REFERENCE_STEM_SLOT,
  silentInputArbitrary,
  structureInputArbitrary,
  typeViolationArbitrary,
  validInputArbitrary,
} from "../../generators/index.ts";

const lenientExport: ValidateFunction = new Ajv2020({ strict: true, validateFormats: false }).compile(
  toJsonSchema("event-lenient", "input"),
);

function bodies(arbitrary: fc.Arbitrary<EventInput>, seed: number, numRuns = 400): EventInput[] {
  return fc.sample(arbitrary, { seed, numRuns }).map((input) => ({
    ...input,
    body: input.body.replace(REFERENCE_STEM_SLOT, "eah-test-"),
  }));
}

describe("event inputs by family", () => {
  it("valid: JSON objects the complete schema accepts, sent as application/json", () => {
    for (const input of bodies(validInputArbitrary(), 1)) {
      expect(input.contentType).toBe("application/json");
      expect(eventSchemas.complete.safeParse(JSON.parse(input.body)).success).toBe(true);
    }
  });

  it("type violations: refused by every strictness and by the exported lenient JSON Schema", () => {
    const seen = new Set<string>();
    for (const input of bodies(typeViolationArbitrary(), 2)) {
      const parsed = JSON.parse(input.body);
      expect(eventSchemas.lenient.safeParse(parsed).success, input.what).toBe(false);
      expect(lenientExport(parsed), input.what).toBe(false);
      seen.add(input.what.replace(/ is .*/, ""));
    }
    // Every documented field gets its turn.
    for (const field of [
      "type",
      "customer",
      "customer.email",
      "channel.id",
      "transaction.reference",
      "system",
    ])
      expect(seen).toContain(field);
  });

  it("type violations: null only where production requires a value, and numbers where strings belong", () => {
    const inputs = bodies(typeViolationArbitrary(), 3, 1000);
    const nulls = inputs.filter((input) => / is null /.test(input.what)).map((input) => input.what);
    expect(nulls.length).toBeGreaterThan(0);
    for (const what of nulls) expect(what).not.toMatch(/^(system|systemVersion|transaction\.date) /);
    expect(inputs.some((input) => /is a number where/.test(input.what))).toBe(true);
    expect(inputs.some((input) => /past 2\^53/.test(input.what) && /[0-9]{17,}/.test(input.body))).toBe(true);
  });

  it("date violations: refused at transaction.date by every strictness and by the exported JSON Schema", () => {
    const whats = new Set<string>();
    for (const input of bodies(dateViolationArbitrary(), 4)) {
      const parsed = JSON.parse(input.body);
      const result = eventSchemas.lenient.safeParse(parsed);
      expect(result.success, input.what).toBe(false);
      expect(result.error?.issues.map((issue) => issue.path.join("."))).toEqual(["transaction.date"]);
      expect(lenientExport(parsed), input.what).toBe(false);
      whats.add(input.what.replace(/:.*/, ""));
    }
    for (const kind of ["without milliseconds", "with an offset", "date only", "on February 30"])
      expect(whats).toContain(`transaction.date ${kind}`);
  });

  it("silent: JSON that keeps every documented field typed, but which the spec neither allows nor forbids", () => {
    const inputs = bodies(silentInputArbitrary(), 5, 1000);
    for (const input of inputs) {
      expect(input.contentType).toBe("application/json");
      const parsed = JSON.parse(input.body);
      expect(typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)).toBe(true);
    }
    const share = (pattern: RegExp) =>
      inputs.filter((input) => pattern.test(input.what)).length / inputs.length;
    expect(share(/nested (\d+) levels/)).toBeGreaterThan(0.03);
    expect(inputs.some((input) => Number(/nested (\d+) levels/.exec(input.what)?.[1]) > 100)).toBe(true);
    expect(share(/unknown property/)).toBeGreaterThan(0.2);
    expect(
      inputs.some((input) => /-?[0-9]{17,}/.test(input.body) && /holding the number/.test(input.what)),
    ).toBe(true);
    expect(share(/twice/)).toBeGreaterThan(0.03);
  });

  it("structure: each is not a JSON object sent as JSON", () => {
    for (const input of bodies(structureInputArbitrary(), 6)) {
      let parsed: unknown;
      let json = true;
      try {
        parsed = JSON.parse(input.body);
      } catch {
        json = false;
      }
      const object = json && typeof parsed === "object" && parsed !== null && !Array.isArray(parsed);
      expect(object && input.contentType === "application/json", input.what).toBe(false);
    }
  });
});
