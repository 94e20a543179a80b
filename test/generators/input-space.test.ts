import { describe, expect, it } from "vitest";
import type { EventInput, InputClass, TokenRequestShape } from "../../generators/index.ts";
import { createInputSpace, REFERENCE_STEM_SLOT, TOKEN_SLOT } from "../../generators/index.ts";

const channelOf = (input: EventInput) =>
  (JSON.parse(input.body) as { channel?: { id?: string } }).channel?.id;

describe("createInputSpace", () => {
  it("names the sender's slots for the reference stem and the token", () => {
    const space = createInputSpace();
    expect(space.referenceSlot).toBe(REFERENCE_STEM_SLOT);
    expect(space.tokenSlot).toBe(TOKEN_SLOT);
  });

  it("gives each check the classes of its own field", () => {
    const space = createInputSpace();
    const fields = (classes: readonly InputClass<EventInput>[]) => [...new Set(classes.map((c) => c.field))];
    expect(fields(space.email)).toEqual(["customer.email"]);
    expect(fields(space.calendar)).toEqual(["transaction.date"]);
    expect(fields(space.channelId)).toEqual(["channel.id"]);
    expect(fields(space.body)).toEqual(["body"]);
    expect(fields(space.jsonGrammar)).toEqual(["body"]);
    expect(fields(space.strings)).toEqual(["type", "transaction.reference", "system", "systemVersion"]);
    expect(fields(space.envelope)).toEqual(["Content-Type", "Authorization", "Accept", "headers"]);
    for (const classes of [space.valid, space.email, space.calendar])
      expect(classes.length).toBeGreaterThan(0);
  });

  it("builds every event class for the target's channel", () => {
    const space = createInputSpace({ channels: ["chl-mine"] });
    for (const classes of [
      space.valid,
      space.email,
      space.strings,
      space.calendar,
      space.envelope,
      space.jsonGrammar,
    ])
      for (const cls of classes) expect(channelOf(cls.cover[0] as EventInput), cls.name).toBe("chl-mine");
    const broken = space.channelId.find((c) => c.name === "prefix-broken");
    expect(broken?.cover.map(channelOf)).toContain("CHL-mine");
  });

  it("makes the token classes for the shape it is given", () => {
    const shape: TokenRequestShape = {
      via: "client_secret_post",
      fields: [
        ["grant_type", "client_credentials"],
        ["client_id", "shop"],
        ["client_secret", "s3cret"],
      ],
      clientId: "shop",
      clientSecret: "s3cret",
      secrets: new Set(["client_secret"]),
    };
    const space = createInputSpace();
    expect(space.tokenForm(shape).map((c) => c.via)).toEqual(
      space.tokenForm(shape).map(() => "client_secret_post"),
    );
    expect(space.tokenFields(shape).map((c) => `${c.field}/${c.name}`)).toContain("client_secret/truncated");
  });
});
