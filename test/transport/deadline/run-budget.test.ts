import { describe, expect, it } from "vitest";
import {
  defaultRunBudgetMs,
  MAX_STRETCHED_RUN_MS,
  probeReserveMs,
} from "../../../transport/deadline/index.ts";

describe("run budget", () => {
  it("gives a run two minutes plus twelve request timeouts", () => {
    expect(defaultRunBudgetMs(10_000)).toBe(240_000);
    expect(defaultRunBudgetMs(0)).toBe(120_000);
  });

  it("reserves four request timeouts and ten seconds past a probe's horizon", () => {
    expect(probeReserveMs(5_000)).toBe(30_000);
  });

  it("stretches a derived deadline to three hours at most", () => {
    expect(MAX_STRETCHED_RUN_MS).toBe(10_800_000);
  });
});
