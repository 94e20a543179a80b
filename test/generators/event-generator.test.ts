import { describe, expect, it } from "vitest";
import { CHANNEL_PREFIX, completeEventSchema } from "../../domain/index.ts";
import type { EventGenerator } from "../../generators/index.ts";
import {
  createEventGenerator,
  GENERATOR_DEFAULTS,
  isExampleEmail,
  MAX_SEED,
  toNdjsonLine,
} from "../../generators/index.ts";
import packageJson from "../../package.json" with { type: "json" };

const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function ndjson(generator: EventGenerator, count: number): string {
  return generator.take(count).map(toNdjsonLine).join("");
}

describe("createEventGenerator", () => {
  it("produces the same first events for seed 42 as the committed snapshot", async () => {
    // The version is pinned so a release does not churn the snapshot.
    await expect(ndjson(createEventGenerator({ seed: 42, systemVersion: "0.1.0" }), 5)).toMatchFileSnapshot(
      "./__snapshots__/seed-42.ndjson",
    );
  });

  it("gives byte-identical output for the same seed and different output for another seed", () => {
    const first = ndjson(createEventGenerator({ seed: 7 }), 2000);
    expect(ndjson(createEventGenerator({ seed: 7 }), 2000)).toBe(first);
    const other = ndjson(createEventGenerator({ seed: 8 }), 2000);
    expect(other).not.toBe(first);
    // Not just the run id: the faked content differs too.
    expect(other.replaceAll("-s8-", "-s7-")).not.toBe(first);
  });

  it("does not depend on the clock or on other generators", () => {
    const alone = ndjson(createEventGenerator({ seed: 3 }), 50);
    const a = createEventGenerator({ seed: 3 });
    const b = createEventGenerator({ seed: 3 });
    const interleaved: string[] = [];
    for (let i = 0; i < 50; i++) {
      interleaved.push(toNdjsonLine(a.next()));
      b.next();
    }
    expect(interleaved.join("")).toBe(alone);
  });

  it("emits the documented fields in a stable key order", () => {
    const event = createEventGenerator({ seed: 1 }).next();
    expect(Object.keys(event)).toEqual([
      "type",
      "customer",
      "channel",
      "transaction",
      "system",
      "systemVersion",
    ]);
    expect(Object.keys(event.customer)).toEqual(["email"]);
    expect(Object.keys(event.channel)).toEqual(["id"]);
    expect(Object.keys(event.transaction)).toEqual(["reference", "date"]);
  });

  it.each([1, 42, 2024, MAX_SEED])("makes 5,000 valid, safe, unique events for seed %i", (seed) => {
    const generator = createEventGenerator({ seed });
    const events = generator.take(5000);
    const references = new Set<string>();
    const emails = new Set<string>();
    let previousDate = "";
    for (const event of events) {
      const result = completeEventSchema.safeParse(event);
      expect(result.error?.issues ?? []).toEqual([]);
      expect(event.type).toBe("checkout");
      expect(isExampleEmail(event.customer.email), event.customer.email).toBe(true);
      expect(event.customer.email).toMatch(/@example\.(com|net|org)$/);
      expect(event.channel.id.startsWith(CHANNEL_PREFIX)).toBe(true);
      expect(generator.channels).toContain(event.channel.id);
      expect(event.transaction.date).toMatch(ISO_MS_Z);
      expect(event.transaction.date >= previousDate).toBe(true);
      previousDate = event.transaction.date;
      expect(event.system).toBe("event-api-harness");
      expect(event.systemVersion).toBe(packageJson.version);
      references.add(event.transaction.reference);
      emails.add(event.customer.email);
    }
    expect(references.size).toBe(events.length);
    expect(generator.count).toBe(5000);
    // Varied, not a handful of values repeated.
    expect(emails.size).toBeGreaterThan(1000);
    expect(new Set(events.map((event) => event.channel.id)).size).toBe(GENERATOR_DEFAULTS.channels);
    expect(new Set(events.map((event) => event.transaction.date.slice(-4))).size).toBeGreaterThan(500);
  });

  it("builds references from the prefix, the run id and a 1-based sequence", () => {
    const generator = createEventGenerator({ seed: 5 });
    expect(generator.runId).toBe("s5");
    expect(generator.take(3).map((event) => event.transaction.reference)).toEqual([
      "eah-s5-1",
      "eah-s5-2",
      "eah-s5-3",
    ]);
    const custom = createEventGenerator({ seed: 5, runId: "nightly-2026.01", referencePrefix: "ord-" });
    expect(custom.next().transaction.reference).toBe("ord-nightly-2026.01-1");
  });

  it("changes only the references when the run id changes", () => {
    const plain = createEventGenerator({ seed: 9 }).take(100);
    const tagged = createEventGenerator({ seed: 9, runId: "other" }).take(100);
    const withoutReference = (event: (typeof plain)[number]) => ({
      ...event,
      transaction: { ...event.transaction, reference: "" },
    });
    expect(tagged.map(withoutReference)).toEqual(plain.map(withoutReference));
  });

  it("keeps e-mails and dates when the channel pool changes", () => {
    const small = createEventGenerator({ seed: 11, channels: 1 }).take(100);
    const large = createEventGenerator({ seed: 11, channels: 50 }).take(100);
    expect(large.map((event) => event.customer.email)).toEqual(small.map((event) => event.customer.email));
    expect(new Set(small.map((event) => event.channel.id)).size).toBe(1);
    expect(new Set(large.map((event) => event.channel.id)).size).toBeGreaterThan(25);
  });

  it("uses explicit channel ids, type, system and version as given", () => {
    const generator = createEventGenerator({
      seed: 1,
      channels: ["chl-a", "chl-b"],
      type: "refund",
      system: "shop",
      systemVersion: "9.9.9",
    });
    expect(generator.channels).toEqual(["chl-a", "chl-b"]);
    const events = generator.take(200);
    expect(new Set(events.map((event) => event.channel.id))).toEqual(new Set(["chl-a", "chl-b"]));
    expect(events[0]).toMatchObject({ type: "refund", system: "shop", systemVersion: "9.9.9" });
  });

  it("starts the transaction dates at startDate, by default a fixed date rather than now", () => {
    expect(createEventGenerator({ seed: 1 }).next().transaction.date).toBe(GENERATOR_DEFAULTS.startDate);
    const generator = createEventGenerator({ seed: 1, startDate: "2030-06-15T12:00:00Z" });
    expect(generator.startDate).toBe("2030-06-15T12:00:00.000Z");
    expect(generator.next().transaction.date).toBe("2030-06-15T12:00:00.000Z");
    expect(createEventGenerator({ seed: 1, startDate: new Date(0) }).next().transaction.date).toBe(
      "1970-01-01T00:00:00.000Z",
    );
  });

  it("take returns fresh objects that callers may change freely", () => {
    const generator = createEventGenerator({ seed: 1 });
    const [first, second] = generator.take(2);
    expect(first).not.toBe(second);
    expect(first?.customer).not.toBe(second?.customer);
    expect(generator.take(0)).toEqual([]);
    expect(() => generator.take(-1)).toThrow(RangeError);
  });

  it.each([
    ["a negative seed", { seed: -1 }],
    ["a fractional seed", { seed: 1.5 }],
    ["a seed beyond 32 bits", { seed: MAX_SEED + 1 }],
    ["a run id with a space", { seed: 1, runId: "my run" }],
    ["an empty run id", { seed: 1, runId: "" }],
    ["an empty channel pool", { seed: 1, channels: 0 }],
    ["a huge channel pool", { seed: 1, channels: 1_000_000 }],
    ["no channel ids", { seed: 1, channels: [] }],
    ["a channel id without the prefix", { seed: 1, channels: ["abc"] }],
    ["a channel id that is only the prefix", { seed: 1, channels: ["chl-"] }],
    ["a repeated channel id", { seed: 1, channels: ["chl-1", "chl-1"] }],
    ["an empty type", { seed: 1, type: "" }],
    ["an invalid start date", { seed: 1, startDate: "not a date" }],
    ["a start date too far out", { seed: 1, startDate: "9999-12-31T00:00:00.000Z" }],
  ] as const)("rejects %s", (_label, options) => {
    expect(() => createEventGenerator(options)).toThrow(RangeError);
  });
});
