import { describe, expect, it } from "vitest";
import type { Counterexample } from "../../../contracts/index.ts";
import { foundWhen } from "../../../reporting/contract/found-when.ts";

const found = (foundAt: Counterexample["foundAt"], shrinks: number): Counterexample => ({
  what: "w",
  contentType: null,
  input: "{}",
  seed: 1,
  path: "p",
  class: "c",
  byCoverage: false,
  shrinks,
  foundAt,
  replay: "",
});

describe("foundWhen", () => {
  it("says which input failed, after how long a search, and how shrinking went", () => {
    expect(foundWhen(found({ input: 3, afterMs: 400, shrinkMs: 2100 }, 12))).toBe(
      "found at input 3 after 400 ms, shrunk 12 times in 2.1 s",
    );
  });

  it("says a failure found at once was replayed, not searched for", () => {
    expect(foundWhen(found({ input: 1, afterMs: 0, shrinkMs: 0 }, 0))).toBe(
      "found at input 1 (replayed), shrunk 0 times in 0 ms",
    );
  });
});
