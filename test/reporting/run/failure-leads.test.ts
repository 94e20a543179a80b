import { describe, expect, it } from "vitest";
import type { PartDetails } from "../../../reporting/run/index.ts";
import { describeLeadItem, failureLeads } from "../../../reporting/run/index.ts";

const part = (
  id: string,
  verdict: PartDetails["outcome"]["verdict"],
  extra: Partial<PartDetails> = {},
): PartDetails => ({
  outcome: {
    id,
    kind: id.startsWith("load") ? "load" : "contract",
    title: id,
    command: `npx --no-install event-harness ${id}`,
    verdict,
    exitCode: verdict === "passed" ? 0 : 1,
    startedAt: "2026-11-28T00:00:00.000Z",
    durationMs: 1000,
  },
  files: [`${id}/results.json`, `${id}/summary.md`],
  ...extra,
});

describe("failureLeads", () => {
  it("puts failed parts before undecided ones, leaves passed parts out, and names each part's summary", () => {
    const leads = failureLeads([
      part("rotation", "passed"),
      part("load-x", "undecided"),
      part("contract", "failed"),
    ]);
    expect(leads.map((lead) => [lead.part.id, lead.evidence])).toEqual([
      ["contract", "contract/summary.md"],
      ["load-x", "load-x/summary.md"],
    ]);
  });

  it("follows a dropped-iterations threshold with k6's reason for it", () => {
    const cause = 'k6 ran out of VUs ("Insufficient VUs, reached 1 active VUs and cannot initialize more")';
    const [lead] = failureLeads([
      part("load-sustained", "failed", {
        load: {
          facts: {} as never,
          thresholds: [
            { metric: "dropped_iterations", expression: "count<=2", ok: false, observed: "count=60" },
          ],
          waived: [],
          accepted: [],
          droppedCause: cause,
        },
      }),
    ]);
    expect(lead?.items.map(describeLeadItem)).toEqual([
      "FAIL  threshold dropped_iterations count<=2 (count=60)",
      `FAIL  dropped iterations: ${cause}`,
    ]);
  });
});
