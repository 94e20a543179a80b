import type { LoadRecord, UnitRecord } from "../../reporting/compare/index.ts";
import { LatencyHistogram, LOAD_RECORD_FORMAT } from "../../reporting/compare/index.ts";
import { seededUniform } from "./seeded-uniform.ts";

export interface UnitShape {
  readonly medianMs: number;
  readonly failed?: number;
  readonly accepted?: number;
  /** Token requests in this unit, each around `tokenMs`. */
  readonly tokens?: number;
  readonly tokenMs?: number;
}

export interface RecordShape {
  readonly settings?: Partial<LoadRecord["settings"]>;
  readonly target?: Partial<LoadRecord["target"]>;
  readonly instances?: number;
  readonly k6?: string;
  /** Events per unit (default 300: enough for a p99 to be judged from 40 units). */
  readonly events?: number;
}

/** A record of `shapes.length` units of 1 s, each with its events around its median latency (seeded jitter). */
export function loadRecord(seed: number, shapes: readonly UnitShape[], shape: RecordShape = {}): LoadRecord {
  const random = seededUniform(seed);
  const perUnit = shape.events ?? 300;
  const units: UnitRecord[] = shapes.map((unit) => {
    const events = new LatencyHistogram();
    const token = new LatencyHistogram();
    for (let i = 0; i < perUnit; i += 1)
      events.add(unit.medianMs * (0.7 + 0.6 * random()) + 3 * random() ** 8);
    for (let i = 0; i < (unit.tokens ?? 2); i += 1) token.add((unit.tokenMs ?? 4) * (0.8 + 0.4 * random()));
    return {
      events: events.entries(),
      eventsMax: events.max,
      token: token.entries(),
      tokenMax: token.max,
      accepted: unit.accepted ?? perUnit - (unit.failed ?? 0),
      failed: unit.failed ?? 0,
    };
  });
  return {
    format: LOAD_RECORD_FORMAT,
    kind: "load",
    settings: {
      scenario: "sustained",
      rate: 50,
      vus: 10,
      durationSeconds: shapes.length,
      clientModel: "sliding",
      expiresInSeconds: 300,
      ...shape.settings,
    },
    versions: { harness: "0.1.0", k6: shape.k6 ?? "v2.2.0" },
    runId: `run-${seed}`,
    startedAt: "2026-11-25T00:00:00.000Z",
    target: {
      embedded: true,
      origin: "http://127.0.0.1:1",
      sandbox: { latencyMs: 0, faults: [] },
      ...shape.target,
    },
    instances: shape.instances ?? 1,
    unitMs: 1000,
    warmUpUnits: 2,
    units,
  };
}

/** `seconds` units at one median latency. */
export const steady = (seconds: number, medianMs = 2, extra: Omit<UnitShape, "medianMs"> = {}): UnitShape[] =>
  Array.from({ length: seconds }, () => ({ medianMs, ...extra }));
