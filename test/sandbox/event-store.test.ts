import { describe, expect, it } from "vitest";
import type { StoredEvent } from "../../sandbox/event-store.ts";
import { EventStore } from "../../sandbox/event-store.ts";

function event(n: number, overrides: Partial<StoredEvent> = {}): StoredEvent {
  return {
    id: `evt-${n}`,
    clientId: "c",
    reference: `ref-${n}`,
    createdAt: n,
    json: `{"n":${n}}`,
    ...overrides,
  };
}

describe("EventStore", () => {
  it("keeps the most recent maxEvents events and forgets the references of the dropped ones", () => {
    const store = new EventStore({ maxEvents: 100, maxBytes: 1 << 20, journal: undefined });
    for (let n = 0; n < 1_000; n += 1) store.add(event(n));
    expect(store.size).toBe(100);
    expect(store.get("evt-899")).toBeUndefined();
    expect(store.get("evt-900")).toEqual(event(900));
    expect(store.duplicateOf("c", "ref-899")).toBeUndefined();
    expect(store.duplicateOf("c", "ref-999")).toBe("evt-999");
    expect(store.duplicateOf("other", "ref-999")).toBeUndefined();
  });

  it("also caps the bytes it holds, dropping the oldest events first but never the newest", () => {
    const store = new EventStore({ maxEvents: 1_000, maxBytes: 100, journal: undefined });
    for (let n = 0; n < 10; n += 1) store.add(event(n, { json: "x".repeat(30) }));
    expect(store.size).toBe(3);
    store.add(event(10, { json: "y".repeat(500) }));
    expect(store.size).toBe(1);
    expect(store.get("evt-10")?.json).toHaveLength(500);
  });

  it("remembers an acknowledged but unkept event's reference (events-not-stored)", () => {
    const store = new EventStore({ maxEvents: 10, maxBytes: 100, journal: undefined });
    store.add(event(1, { json: undefined }));
    expect(store.get("evt-1")?.json).toBeUndefined();
    expect(store.duplicateOf("c", "ref-1")).toBe("evt-1");
  });
});
