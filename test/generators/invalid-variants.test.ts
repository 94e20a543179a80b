import { describe, expect, it } from "vitest";
import type { CheckoutEvent, EventStrictness } from "../../domain/index.ts";
import { EVENT_STRICTNESS, eventSchemas } from "../../domain/index.ts";
import {
  createEventGenerator,
  findInvalidVariant,
  INVALID_VARIANT_NAMES,
  INVALID_VARIANTS,
  isRejectedAt,
} from "../../generators/index.ts";

/** Events from several seeds, channel shapes and dates, so variants are checked against more than one event. */
const EVENTS: readonly CheckoutEvent[] = [
  ...createEventGenerator({ seed: 42 }).take(5),
  ...createEventGenerator({ seed: 1, channels: ["chl-1"], startDate: "2028-02-29T23:59:59.999Z" }).take(3),
  ...createEventGenerator({ seed: 2, systemVersion: "v2-beta" }).take(2),
];

const REQUIRED_NAMES = [
  "missing-type",
  "type-not-string",
  "missing-customer",
  "customer-not-object",
  "missing-email",
  "malformed-email",
  "email-not-string",
  "missing-channel",
  "missing-channel-id",
  "channel-prefix-missing",
  "channel-id-prefix-only",
  "channel-id-not-string",
  "missing-transaction",
  "missing-reference",
  "empty-reference",
  "reference-not-string",
  "date-without-milliseconds",
  "date-with-offset",
  "date-not-iso",
  "date-impossible",
  "missing-system",
  "missing-system-version",
  "body-is-array",
  "body-is-null",
];

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

function issues(strictness: EventStrictness, body: unknown) {
  const result = eventSchemas[strictness].safeParse(body);
  return result.success ? [] : result.error.issues;
}

describe("INVALID_VARIANTS", () => {
  it("names every variant once, in kebab-case, and covers the required ones", () => {
    for (const name of INVALID_VARIANT_NAMES) expect(name).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    expect(new Set(INVALID_VARIANT_NAMES).size).toBe(INVALID_VARIANTS.length);
    expect(INVALID_VARIANT_NAMES).toEqual(expect.arrayContaining(REQUIRED_NAMES));
    expect(INVALID_VARIANT_NAMES).not.toContain("all");
  });

  it("states a rule for every variant and quotes the spec for every format rule", () => {
    for (const variant of INVALID_VARIANTS) {
      expect(variant.rule.length, variant.name).toBeGreaterThan(20);
      if (variant.violates === "lenient") expect(variant.rule, variant.name).toMatch(/^Spec, Event: "/);
    }
  });

  it("says where the spec is silent: what only the generator's own form refuses is no error a target must reject", () => {
    const silent = INVALID_VARIANTS.filter((variant) => variant.violates === "complete");
    expect(silent.map((variant) => variant.name).sort()).toEqual([
      "channel-id-prefix-only",
      "empty-reference",
      "empty-system",
      "empty-system-version",
      "empty-type",
      "missing-date",
      "missing-system",
      "missing-system-version",
    ]);
    for (const variant of silent) expect(variant.rule, variant.name).toMatch(/The spec is silent/);
  });

  it("is frozen, so no caller can change the catalogue for others", () => {
    expect(Object.isFrozen(INVALID_VARIANTS)).toBe(true);
    for (const variant of INVALID_VARIANTS) {
      expect(Object.isFrozen(variant)).toBe(true);
      expect(Object.isFrozen(variant.path)).toBe(true);
    }
  });

  describe.each(INVALID_VARIANTS.map((variant) => [variant.name, variant] as const))(
    "%s",
    (_name, variant) => {
      it(`is rejected from '${variant.violates}' up and accepted below, with issues at ${variant.path.join(".") || "the body"}`, () => {
        for (const event of EVENTS) {
          const body = variant.apply(event);
          for (const strictness of EVENT_STRICTNESS) {
            const found = issues(strictness, body);
            if (!isRejectedAt(variant, strictness)) {
              expect(found, `${strictness} should accept ${JSON.stringify(body)}`).toEqual([]);
              continue;
            }
            expect(found.length, `${strictness} should reject ${JSON.stringify(body)}`).toBeGreaterThan(0);
            for (const issue of found)
              expect(issue.path.slice(0, variant.path.length)).toEqual([...variant.path]);
          }
        }
      });

      it("leaves the event untouched and shares no objects with it", () => {
        const event = deepFreeze(structuredClone(EVENTS[0] as CheckoutEvent));
        const before = JSON.stringify(event);
        const body = variant.apply(event);
        expect(JSON.stringify(event)).toBe(before);
        const nested = [event, event.customer, event.channel, event.transaction];
        const seen: unknown[] = [];
        const walk = (value: unknown) => {
          if (value === null || typeof value !== "object") return;
          seen.push(value);
          for (const item of Object.values(value)) walk(item);
        };
        walk(body);
        for (const object of nested) expect(seen).not.toContain(object);
      });

      it("survives a JSON round trip unchanged, so it can travel in an NDJSON file", () => {
        for (const event of EVENTS) {
          const body = variant.apply(event);
          expect(JSON.parse(JSON.stringify(body))).toEqual(body);
        }
      });

      it("is deterministic for a given event", () => {
        const event = EVENTS[1] as CheckoutEvent;
        expect(JSON.stringify(variant.apply(event))).toBe(JSON.stringify(variant.apply(event)));
      });
    },
  );

  it("breaks each field in the documented way", () => {
    const event = createEventGenerator({
      seed: 1,
      channels: ["chl-abc"],
      startDate: "2026-01-02T03:04:05.678Z",
    }).next();
    const at = (name: string) =>
      findInvalidVariant(name)?.apply(event) as Record<string, Record<string, unknown>>;
    expect(at("date-without-milliseconds").transaction?.date).toBe("2026-01-02T03:04:05Z");
    expect(at("date-with-offset").transaction?.date).toBe("2026-01-02T04:04:05.678+01:00");
    expect(at("date-not-iso").transaction?.date).toBe("02/01/2026");
    expect(at("date-impossible").transaction?.date).toBe("2026-02-30T03:04:05.678Z");
    expect(at("date-without-designator").transaction?.date).toBe("2026-01-02T03:04:05.678");
    expect(at("date-with-microseconds").transaction?.date).toBe("2026-01-02T03:04:05.678000Z");
    expect(at("channel-prefix-missing").channel?.id).toBe("abc");
    expect(at("channel-id-prefix-only").channel?.id).toBe("chl-");
    expect(at("channel-prefix-uppercase").channel?.id).toBe("CHL-abc");
    expect(at("reference-not-string").transaction?.reference).toBe(1);
    expect(at("missing-system")).not.toHaveProperty("system");
    expect(Object.keys(at("missing-type"))).toEqual([
      "customer",
      "channel",
      "transaction",
      "system",
      "systemVersion",
    ]);
    expect(findInvalidVariant("body-is-null")?.apply(event)).toBeNull();
    expect(findInvalidVariant("body-is-array")?.apply(event)).toEqual([event]);
    expect(JSON.parse(findInvalidVariant("body-is-json-string")?.apply(event) as string)).toEqual(event);
  });
});

describe("findInvalidVariant", () => {
  it("finds a variant by name and nothing for an unknown one", () => {
    expect(findInvalidVariant("date-with-offset")?.path).toEqual(["transaction", "date"]);
    expect(findInvalidVariant("nope")).toBeUndefined();
    expect(findInvalidVariant("all")).toBeUndefined();
  });
});

describe("isRejectedAt", () => {
  it("rejects at the violated strictness and every stricter one only", () => {
    const table = Object.fromEntries(
      EVENT_STRICTNESS.map((violates) => [
        violates,
        EVENT_STRICTNESS.filter((strictness) => isRejectedAt({ violates }, strictness)),
      ]),
    );
    expect(table).toEqual({
      complete: ["complete"],
      production: ["complete", "production"],
      lenient: ["complete", "production", "lenient"],
    });
  });

  it("uses every strictness somewhere in the catalogue", () => {
    expect(new Set(INVALID_VARIANTS.map((variant) => variant.violates))).toEqual(new Set(EVENT_STRICTNESS));
  });
});
