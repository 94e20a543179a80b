import { describe, expect, it } from "vitest";
import { completeEventSchema } from "../../../domain/index.ts";
import { buildEventTemplates } from "../../../k6-tooling/run/build-event-templates.ts";
import { assembleEventBody, eventReference } from "../../../load/index.ts";

describe("load --events wide: templates from the valid-space generator", () => {
  const file = buildEventTemplates({ runId: "wide-run", seed: 3, count: 300, events: "wide" });

  it("every body a VU assembles is a valid event, its reference unique and the generated part kept", () => {
    const references = new Set<string>();
    file.templates.forEach((template, index) => {
      const reference = eventReference("wide-run", 1, index, 0);
      const body = JSON.parse(assembleEventBody(template, reference, "2026-11-22T03:04:05.678Z"));
      expect(completeEventSchema.safeParse(body).success, JSON.stringify(body)).toBe(true);
      expect(body.transaction.reference.startsWith(`${reference}-`)).toBe(true);
      references.add(body.transaction.reference);
    });
    expect(references.size).toBe(300);
  });

  it("sends the unusual-but-valid inputs production sends: + and non-ASCII addresses, quotes, emoji", () => {
    const bodies = file.templates.map((template) =>
      JSON.parse(assembleEventBody(template, "r", "2026-11-22T03:04:05.678Z")),
    );
    expect(bodies.some((body) => body.customer.email.split("@")[0].includes("+"))).toBe(true);
    expect(bodies.some((body) => /[^\p{ASCII}]/u.test(body.customer.email))).toBe(true);
    expect(bodies.some((body) => body.transaction.reference.includes("'"))).toBe(true);
    expect(bodies.some((body) => /\p{Extended_Pictographic}/u.test(body.system))).toBe(true);
  });

  it("plain stays the default: the faker generator's events, byte for byte as before", () => {
    expect(buildEventTemplates({ runId: "r", seed: 3, count: 5 })).toEqual(
      buildEventTemplates({ runId: "r", seed: 3, count: 5, events: "plain" }),
    );
  });

  it("is the same for the same seed and uses the target's channel when given", () => {
    const again = buildEventTemplates({ runId: "wide-run", seed: 3, count: 300, events: "wide" });
    expect(again).toEqual(file);
    const channelled = buildEventTemplates({
      runId: "r",
      seed: 3,
      count: 20,
      events: "wide",
      channelId: "chl-mine",
    });
    for (const template of channelled.templates)
      expect(JSON.parse(assembleEventBody(template, "r", "2026-11-22T03:04:05.678Z")).channel.id).toBe(
        "chl-mine",
      );
  });
});
