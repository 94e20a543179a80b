import { ALL_CHECKS } from "../../contracts/index.ts";
import { FAULTS } from "../../sandbox/index.ts";
import {
  checkAgainst,
  EXPECTED,
  expectExactly,
  fastRows,
  ids,
  NOT_IN_MATRIX,
} from "../support/fault-matrix.ts";
import { describe, expect, it } from "../support/fixtures.ts";

// The fast profile's part of the matrix: the token faults here, the bearer and events faults in fault-matrix-api,
// the input-handling faults (the property-based stage at the full profile's number of inputs) in
// fault-matrix-inputs, so three workers share it; the full profile's (which waits out token lifetimes) is
// fault-matrix-full.

describe("the contract suite against the sandbox", () => {
  it("passes every fast check with HTTP Basic client authentication against the correct sandbox", {
    timeout: 60_000,
  }, async ({ sandbox }) => {
    const results = await checkAgainst(sandbox, [], "fast", "basic");
    expect(results.filter((result) => result.status !== "PASS")).toEqual([]);
  });

  it("fails token.issued when a Basic-only server is asked with the spec's form fields", {
    timeout: 60_000,
  }, async ({ sandbox }) => {
    const results = await checkAgainst(sandbox, ["token-basic-only"], "fast", "post");
    expect(ids(results, "FAIL")).toEqual(["token.issued"]);
    expect(ids(results, "WARN")).toEqual(["token.form-auth"]);
    expect(ids(results, "ERROR")).toEqual([]);
  });

  for (const [fault, clientAuth] of [
    ["token-basic-unchecked", "basic"],
    ["token-form-unchecked", "post"],
  ] as const) {
    it(`fails the refusal checks under ${fault} when the run authenticates that way itself`, {
      timeout: 60_000,
    }, async ({ sandbox }) => {
      const results = await checkAgainst(sandbox, [fault], "fast", clientAuth);
      expect(ids(results, "FAIL")).toEqual([
        "inputs.token-fields",
        "token.unknown-client-refused",
        "token.wrong-secret-refused",
      ]);
      expect(ids(results, "WARN")).toEqual(["token.error-format"]);
      expect(ids(results, "ERROR")).toEqual([]);
    });
  }

  it("has an expectation for every fault of the sandbox", () => {
    const covered = FAULTS.map((fault) => fault.name).filter(
      (name) => !(name in EXPECTED) && !NOT_IN_MATRIX.has(name),
    );
    expect(covered).toEqual([]);
  });

  it("proves every check can fail: some fault makes each MUST check FAIL and each SHOULD check WARN", () => {
    const tripped = new Set(
      Object.values(EXPECTED).flatMap((expected) => [...(expected?.fail ?? []), ...(expected?.warn ?? [])]),
    );
    const unproven = ALL_CHECKS.filter((check) => check.level !== "INFO" && !tripped.has(check.id)).map(
      (c) => c.id,
    );
    expect(unproven).toEqual([]);
  });

  for (const [fault, expected] of fastRows("token")) {
    it(`fails exactly the expected checks under ${fault}`, { timeout: expected.timeout }, async ({
      sandbox,
    }) => {
      await expectExactly(sandbox, fault, expected);
    });
  }
});
