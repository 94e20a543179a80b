import { RUN_BOUNDS } from "../../load/index.ts";
import type { OptionSpecs, ParsedOptions } from "../command.ts";

/** The options of `load capacity`: the search's shape and bounds (--rate is its first step, --duration its time). */
export const capacityOptions = {
  "max-rate": {
    type: "string",
    valueName: "N",
    // Every step's rate reaches k6, which takes rates up to the run's bound.
    range: { min: 1, max: RUN_BOUNDS.rate.max },
    description: "capacity: no step above N events/s (default 20000).",
  },
  resolution: {
    type: "string",
    valueName: "P%|N",
    // The bound of N; P runs from above 0 to 50 %.
    range: { min: 1, max: RUN_BOUNDS.rate.max },
    description:
      "capacity: bisect until the highest rate held and the lowest broken are within P % of the rate held, or N events/s (default 5%).",
  },
  "step-factor": {
    type: "string",
    valueName: "F",
    range: { min: 1.1, max: 10 },
    description: "capacity: each step up multiplies the rate by F, from 1.1 to 10 (default 2).",
  },
  "max-steps": {
    type: "string",
    valueName: "N",
    range: { min: 1, max: 100 },
    description: "capacity: at most N steps (default 15).",
  },
  "step-duration": {
    type: "string",
    valueName: "D",
    range: { min: 1, max: 3600 },
    description:
      "capacity: each step is judged for at least D (default 10s), and long enough for its objectives' events.",
  },
  "step-warm-up": {
    type: "string",
    valueName: "D",
    range: { min: 0, max: 600 },
    description: "capacity: each step first runs D at its rate, not judged (default 5s).",
  },
} as const satisfies OptionSpecs;

/** The capacity options as parsed. */
export type CapacityOptionValues = ParsedOptions<typeof capacityOptions>;
