import { describe, expect, it } from "vitest";
import { completeEventSchema } from "../../../domain/index.ts";
import { createEventGenerator } from "../../../generators/index.ts";
import { assembleEventBody, eventReference, toEventTemplate } from "../../../load/index.ts";

describe("event templates", () => {
  const generator = createEventGenerator({ seed: 7, runId: "tmpl" });

  it("rebuilds a valid event with the iteration's reference and date", () => {
    for (const event of generator.take(50)) {
      const template = toEventTemplate(event);
      const date = "2026-11-22T03:04:05.678Z";
      const body = JSON.parse(assembleEventBody(template, "ref-1-0", date)) as typeof event;
      expect(completeEventSchema.safeParse(body).success).toBe(true);
      expect(body.transaction).toEqual({ ...event.transaction, reference: "ref-1-0", date });
      expect({ ...body, transaction: undefined }).toEqual({ ...event, transaction: undefined });
    }
  });

  it("keeps the template free of the generated reference and date", () => {
    const event = generator.next();
    const text = toEventTemplate(event).join("");
    expect(text).not.toContain(event.transaction.reference);
    expect(text).not.toContain(event.transaction.date);
  });

  it("makes references unique per VU, per iteration and per event within one", () => {
    const references = new Set<string>();
    for (let vu = 1; vu <= 4; vu += 1) {
      for (let iteration = 0; iteration < 100; iteration += 1) {
        for (let index = 0; index < 3; index += 1)
          references.add(eventReference("run", vu, iteration, index));
      }
    }
    expect(references.size).toBe(1200);
    expect(eventReference("sustained-20261122T030000Z-ab12", 7, 41, 0)).toBe(
      "sustained-20261122T030000Z-ab12-7-41-0",
    );
  });
});
