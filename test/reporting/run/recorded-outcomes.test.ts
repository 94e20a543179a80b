import { describe, expect, it } from "vitest";
import { asOutcomes } from "../../../reporting/run/recorded-outcomes.ts";

describe("asOutcomes", () => {
  it("keeps well-formed outcomes with their entry's id, expiry and level", () => {
    expect(
      asOutcomes([
        {
          state: "stale",
          level: "MUST",
          entry: { id: "lifetime.sliding", expires: "2027-01-31", reason: "r" },
          detail: "d",
        },
        { state: "waived", entry: { id: "token.a" } },
      ]),
    ).toEqual([
      { state: "stale", level: "MUST", entry: { id: "lifetime.sliding", expires: "2027-01-31" } },
      { state: "waived", entry: { id: "token.a" } },
    ]);
  });

  it("accepts every state a ledger entry can reach", () => {
    const states = ["waived", "expired", "stale", "unobserved", "not-applied"];
    expect(asOutcomes(states.map((state) => ({ state, entry: { id: "x" } }))).map((o) => o.state)).toEqual(
      states,
    );
  });

  it("leaves out an outcome without a known state, and anything that is not an outcome", () => {
    expect(
      asOutcomes([
        { state: "forgiven", entry: { id: "x" } },
        { entry: { id: "y" } },
        { state: 1 },
        null,
        "stale",
        ["stale"],
      ]),
    ).toEqual([]);
    expect(asOutcomes(undefined)).toEqual([]);
    expect(asOutcomes({ state: "stale" })).toEqual([]);
  });

  it("drops an unknown level and malformed entry fields, keeping the outcome", () => {
    expect(
      asOutcomes([
        { state: "expired", level: "MAY", entry: { id: 7, expires: 2027 } },
        { state: "expired", level: "SHOULD", entry: "token.a" },
      ]),
    ).toEqual([
      { state: "expired", entry: { id: "" } },
      { state: "expired", level: "SHOULD", entry: { id: "" } },
    ]);
  });
});
