import { describe, expect, it } from "vitest";
import type { CheckResult } from "../../../contracts/index.ts";
import { renderChecks } from "../../../reporting/run/html-checks.ts";

const waived: CheckResult = {
  id: "lifetime.sliding",
  title: "Lifetime counts from the last use",
  area: "lifetime",
  level: "MUST",
  rule: "Authentication rule 6",
  status: "WAIVED",
  message: "rejected 3 s after its first use [WAIVED: accepted until 2027-01-31 (API-1): <fixed> lifetime]",
  durationMs: 3000,
  evidence: [],
  acceptance: { state: "waived", reason: "<fixed> lifetime", ticket: "API-1", expires: "2027-01-31" },
};

describe("renderChecks", () => {
  it("shows a waived check in its own colour, with the ledger's reason, never as a pass", () => {
    const html = renderChecks([waived]);
    expect(html).toContain('<span class="pill WAIVED">1 WAIVED</span>');
    expect(html).toContain('<details class="check WAIVED"');
    expect(html).toContain(
      "<dt>Accepted</dt><dd>waived: accepted until 2027-01-31 (API-1): &lt;fixed&gt; lifetime</dd>",
    );
    expect(html).not.toContain("PASS");
  });
});
