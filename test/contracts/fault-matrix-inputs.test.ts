import { expectExactly, fastRows } from "../support/fault-matrix.ts";
import { describe, it } from "../support/fixtures.ts";

// The fast profile's part of the matrix for the input-handling faults, each found by the property-based stage at the full profile's number of inputs (the rest is in fault-matrix.test.ts).

describe("the contract suite against the sandbox", () => {
  for (const [fault, expected] of fastRows("inputs")) {
    it(`fails exactly the expected checks under ${fault}`, { timeout: expected.timeout }, async ({
      sandbox,
    }) => {
      await expectExactly(sandbox, fault, expected);
    });
  }
});
