import { onTestFinished, vi } from "vitest";
import { WARM_UP_INDEX } from "../../../load/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

// The warm-up runs only in k6: k6's sleep and the VU's client are stand-ins that record their calls.
const calls = vi.hoisted(() => ({ sleep: vi.fn(), sendEvent: vi.fn() }));
vi.mock("k6", () => ({ sleep: calls.sleep }));
vi.mock("../../../load/lib/k6-vu.ts", () => ({ sendEvent: calls.sendEvent }));

/** k6-warm-up.ts runs under k6's types only: imported by a computed name, not as a type. */
async function warmUpOf(): Promise<() => void> {
  const specifier = "../../../load/lib/k6-warm-up.ts";
  return ((await import(/* @vite-ignore */ specifier)) as { warmUp: () => void }).warmUp;
}

/** Runs the warm-up as VU `vu` and gives what it slept and sent. */
async function warmUpAs(vu: number): Promise<{ slept: unknown[]; sent: unknown[]; sleptFirst: boolean }> {
  calls.sleep.mockClear();
  calls.sendEvent.mockClear();
  vi.stubGlobal("__VU", vu);
  onTestFinished(() => {
    vi.unstubAllGlobals();
  });
  (await warmUpOf())();
  return {
    slept: calls.sleep.mock.calls.map(([seconds]) => seconds),
    sent: calls.sendEvent.mock.calls,
    sleptFirst:
      (calls.sleep.mock.invocationCallOrder[0] ?? Number.POSITIVE_INFINITY) <
      (calls.sendEvent.mock.invocationCallOrder[0] ?? 0),
  };
}

describe("warmUp", () => {
  it("waits the VU's slot, then fetches its first token with a warm-up send", async () => {
    // VU 3 takes the third of 20 slots over the warm-up's first second: 2 × 0.05 s.
    const { slept, sent, sleptFirst } = await warmUpAs(3);
    expect(slept).toEqual([0.1]);
    expect(sent).toEqual([[0, WARM_UP_INDEX, true, false]]);
    expect(sleptFirst).toBe(true);
  });

  it("starts VU 1 at once and puts VU 21 in the first slot again", async () => {
    expect((await warmUpAs(1)).slept).toEqual([0]);
    expect((await warmUpAs(21)).slept).toEqual([0]);
    expect((await warmUpAs(20)).slept[0]).toBeCloseTo(0.95, 10);
  });
});
