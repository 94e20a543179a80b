import type { ClientModel } from "./client-models.ts";

export const SCENARIO_NAMES = [
  "sustained",
  "ramp",
  "spike",
  "soak",
  "idle-gap",
  "token-storm",
  "capacity",
] as const;

export type ScenarioName = (typeof SCENARIO_NAMES)[number];

export interface ScenarioSpec {
  readonly summary: string;
  /** Open scenarios schedule arrivals (rate); closed ones loop VUs (idle time under control). */
  readonly model: "open" | "closed";
  readonly usesRate: boolean;
  readonly defaults: {
    /** Events per second (for spike: the base rate; for ramp: the peak; for capacity: the first step's). */
    readonly rate?: number;
    /** Undefined for idle-gap, whose length follows from expires_in; for capacity, the search's time bound. */
    readonly durationSeconds?: number;
    readonly vus: number;
    readonly clientModel: ClientModel;
  };
}

/** How many times the base rate a spike reaches. */
export const SPIKE_FACTOR = 5;
/** Events sent back to back after each idle gap. */
export const IDLE_GAP_BURST = 3;
/** Short + long gap pairs per VU when --duration is not given. */
export const IDLE_GAP_DEFAULT_CYCLES = 2;

/** Each scenario's defaults are small enough for a laptop; the flags scale them. */
export const SCENARIOS: Readonly<Record<ScenarioName, ScenarioSpec>> = {
  sustained: {
    summary: "constant arrival rate of event creations (open model)",
    model: "open",
    usesRate: true,
    defaults: { rate: 20, durationSeconds: 30, vus: 5, clientModel: "sliding" },
  },
  ramp: {
    summary: "arrival rate ramps from 1/s up to --rate, holds, and ramps down",
    model: "open",
    usesRate: true,
    defaults: { rate: 50, durationSeconds: 60, vus: 10, clientModel: "sliding" },
  },
  spike: {
    summary: `base rate, a spike to ${SPIKE_FACTOR}× that rate, and back`,
    model: "open",
    usesRate: true,
    defaults: { rate: 10, durationSeconds: 60, vus: 10, clientModel: "sliding" },
  },
  soak: {
    summary: "long constant rate with memory-friendly settings",
    model: "open",
    usesRate: true,
    defaults: { rate: 10, durationSeconds: 1800, vus: 5, clientModel: "sliding" },
  },
  "idle-gap": {
    summary: "closed-model VUs alternating bursts with idle gaps below and above expires_in",
    model: "closed",
    usesRate: false,
    defaults: { vus: 2, clientModel: "sliding" },
  },
  "token-storm": {
    summary: "many VUs obtaining tokens at once (the token endpoint under load)",
    model: "closed",
    usesRate: false,
    defaults: { durationSeconds: 10, vus: 50, clientModel: "token-per-iteration" },
  },
  capacity: {
    summary: "the highest arrival rate held within the objectives: steps up from --rate, then bisects",
    model: "open",
    usesRate: true,
    defaults: { rate: 20, durationSeconds: 600, vus: 5, clientModel: "sliding" },
  },
};

export function isScenarioName(name: string): name is ScenarioName {
  return (SCENARIO_NAMES as readonly string[]).includes(name);
}
