import { describe, expect, it } from "vitest";
import type { EntryOutcome } from "../../../reporting/accepted/index.ts";
import { acceptedSection } from "../../../reporting/load/accepted-section.ts";
import { liveNodes, markdownNodes, markdownTree, textOf } from "../../support/markdown-tree.ts";

const waived: EntryOutcome = {
  entry: { id: "load.http_req_duration{endpoint:events}", reason: "slow *disk* <b>", expires: "2027-01-31" },
  state: "waived",
  detail: "crossed, waived",
  level: "MUST",
};
const stale: EntryOutcome = {
  entry: { id: "load.events_failed", reason: "known 503s" },
  state: "stale",
  detail: "held: remove this entry",
  level: "MUST",
};

describe("acceptedSection", () => {
  it("writes nothing where the ledger named no entry", () => {
    expect(acceptedSection([])).toEqual([]);
  });

  it("writes a heading and one list item per entry, in the ledger's order, its words inert", () => {
    const markdown = acceptedSection([waived, stale]).join("\n");
    const nodes = markdownNodes(markdownTree(markdown));
    const headings = nodes.filter((n) => n.type === "heading");
    expect(headings.map((h) => [h.type === "heading" ? h.depth : 0, textOf(h)])).toEqual([
      [2, "Accepted deviations"],
    ]);
    expect(
      nodes.filter((n) => n.type === "listItem").map((item) => textOf(item).replace(/\s+/g, " ")),
    ).toEqual([
      "WAIVED load.http_req_duration{endpoint:events}: accepted until 2027-01-31: slow *disk* <b>",
      "STALE load.events_failed: held: remove this entry",
    ]);
    expect(liveNodes(markdown)).toEqual([]);
  });
});
