import { describe, expect, it } from "vitest";
import { droppedCause } from "../../../reporting/load/dropped-cause.ts";
import { sustainedReportContext } from "../../support/run-config-fixture.ts";

const short = { ...sustainedReportContext, vuShortage: "Insufficient VUs, reached 5 active VUs" };

describe("droppedCause", () => {
  it("says k6 ran out of VUs, in its words, and what would remove the cause", () => {
    expect(droppedCause(short, 12)).toBe(
      'k6 ran out of VUs ("Insufficient VUs, reached 5 active VUs"): each iteration holds a VU until the target answers, so 5 VUs could not keep up 20 events/s; raise --vus or lower --rate',
    );
  });

  it("names the scenario's arrival rate when no rate was set, and one VU in the singular", () => {
    expect(droppedCause({ ...short, rate: undefined, vus: 1 }, 1)).toBe(
      'k6 ran out of VUs ("Insufficient VUs, reached 5 active VUs"): each iteration holds a VU until the target answers, so 1 VU could not keep up the scenario\'s arrival rate; raise --vus or lower --rate',
    );
  });

  it("says nothing when none was dropped or k6 gave no reason", () => {
    expect(droppedCause(short, 0)).toBeUndefined();
    expect(droppedCause(sustainedReportContext, 12)).toBeUndefined();
  });
});
