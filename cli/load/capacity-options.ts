// Definitions only, so `load --help` loads none of the machinery.
/** The options of `load capacity`: the search's shape and bounds (--rate is its first step, --duration its time). */
export const capacityOptions = {
  "max-rate": {
    type: "string",
    valueName: "N",
    description: "capacity: no step above N events/s (default 20000).",
  },
  resolution: {
    type: "string",
    valueName: "P%|N",
    description:
      "capacity: bisect until the highest rate held and the lowest broken are within P % of the rate held, or N events/s (default 5%).",
  },
  "step-factor": {
    type: "string",
    valueName: "F",
    description: "capacity: each step up multiplies the rate by F, from 1.1 to 10 (default 2).",
  },
  "max-steps": {
    type: "string",
    valueName: "N",
    description: "capacity: at most N steps (default 15).",
  },
  "step-duration": {
    type: "string",
    valueName: "D",
    description:
      "capacity: each step is judged for at least D (default 10s), and long enough for its objectives' events.",
  },
  "step-warm-up": {
    type: "string",
    valueName: "D",
    description: "capacity: each step first runs D at its rate, not judged (default 5s).",
  },
} as const;
