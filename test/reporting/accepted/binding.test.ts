import { describe, expect, it } from "vitest";
import {
  bindingMismatch,
  bindingsDisjoint,
  entriesInScope,
  inLedgerOrder,
} from "../../../reporting/accepted/binding.ts";
import type { Ledger, LedgerEntry, LedgerScope } from "../../../reporting/accepted/index.ts";

const free: LedgerEntry = { id: "lifetime.sliding", reason: "fixed lifetime", expires: "2027-01-31" };
const prod: LedgerEntry = { ...free, environment: "prod" };
const api: LedgerEntry = { ...free, target: "https://api.example.com/v1" };
const prodScope: LedgerScope = {
  environment: "prod",
  target: { baseUrl: "https://api.example.com:443/v1/" },
};

describe("bindingMismatch", () => {
  it("applies an unbound entry to every run, even where the command cannot tell which", () => {
    expect(bindingMismatch(free, undefined)).toBeUndefined();
    expect(bindingMismatch(free, { environment: undefined, target: "embedded" })).toBeUndefined();
  });

  it("applies an entry bound to an environment only in that environment, and says why not elsewhere", () => {
    expect(bindingMismatch(prod, prodScope)).toBeUndefined();
    expect(bindingMismatch(prod, undefined)).toBe(
      "bound to environment 'prod', and this command cannot tell which environment the run took",
    );
    expect(bindingMismatch(prod, { ...prodScope, environment: undefined })).toBe(
      "bound to environment 'prod', and this run took no environment of a config file",
    );
    expect(bindingMismatch(prod, { ...prodScope, environment: "staging" })).toBe(
      "bound to environment 'prod', and this run's is 'staging'",
    );
  });

  it("writes the run's environment name inert", () => {
    const message = bindingMismatch(prod, { ...prodScope, environment: "st\u001b[31mg\nx" });
    expect(message).toBe("bound to environment 'prod', and this run's is 'st\\x1b[31mg\\nx'");
  });

  it("applies an entry bound to a target to that base URL only, however its port and final slash are written", () => {
    expect(bindingMismatch(api, prodScope)).toBeUndefined();
    expect(bindingMismatch(api, undefined)).toBe(
      "bound to target https://api.example.com/v1, and this command cannot tell which target the run tested",
    );
    expect(bindingMismatch(api, { environment: undefined, target: "embedded" })).toBe(
      "bound to target https://api.example.com/v1, and this run tested the embedded sandbox",
    );
    expect(
      bindingMismatch(api, { environment: undefined, target: { baseUrl: "https://api.example.com/v2" } }),
    ).toBe("bound to target https://api.example.com/v1, and this run tested another base URL");
    expect(
      bindingMismatch(api, { environment: undefined, target: { baseUrl: "http://api.example.com/v1" } }),
    ).toBe("bound to target https://api.example.com/v1, and this run tested another base URL");
  });

  it("names the environment first for an entry bound to both", () => {
    const both = { ...api, environment: "prod" };
    expect(bindingMismatch(both, { environment: "dev", target: "embedded" })).toMatch(
      /^bound to environment 'prod'/,
    );
    expect(bindingMismatch(both, { environment: "prod", target: "embedded" })).toMatch(/^bound to target /);
  });
});

describe("bindingsDisjoint", () => {
  it("is true only where no run can match both entries", () => {
    expect(bindingsDisjoint(prod, { ...free, environment: "dev" })).toBe(true);
    expect(bindingsDisjoint(api, { ...free, target: "https://other.example.com/v1" })).toBe(true);
    expect(bindingsDisjoint({ ...api, environment: "prod" }, { ...api, environment: "dev" })).toBe(true);
    expect(bindingsDisjoint(prod, prod)).toBe(false);
    expect(bindingsDisjoint(prod, free)).toBe(false);
    expect(bindingsDisjoint(prod, api)).toBe(false);
    expect(bindingsDisjoint(api, { ...free, target: "https://api.example.com:443/v1/" })).toBe(false);
  });
});

describe("entriesInScope and inLedgerOrder", () => {
  it("split the entries that apply from those that do not, and list outcomes in the ledger's order", () => {
    const dev: LedgerEntry = { ...free, id: "token.issued", environment: "dev" };
    const ledger: Ledger = {
      file: "accepted.json",
      entries: [dev, free, prod],
      today: "2026-11-25",
      scope: prodScope,
    };
    const { applying, notApplied } = entriesInScope(ledger.entries, ledger);
    expect(applying).toEqual([free, prod]);
    expect(notApplied).toEqual([
      { entry: dev, state: "not-applied", detail: "bound to environment 'dev', and this run's is 'prod'" },
    ]);
    const outcomes = [
      { entry: prod, state: "waived", detail: "b" },
      { entry: free, state: "stale", detail: "a" },
      ...notApplied,
    ] as const;
    expect(inLedgerOrder(outcomes, ledger).map((o) => o.entry)).toEqual([dev, free, prod]);
  });
});
