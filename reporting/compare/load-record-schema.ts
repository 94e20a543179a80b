import { z } from "zod";
import { formatDurationCompact } from "../../core/index.ts";
import { CLIENT_MODELS, MAX_RUN_SECONDS, SCENARIO_NAMES } from "../../load/index.ts";
import { MAX_BUCKET_INDEX } from "./latency-histogram.ts";
import type { LoadRecord } from "./load-record.ts";
import { LOAD_RECORD_FAMILY, LOAD_RECORD_FORMAT } from "./load-record.ts";

/** More units than a day-long run keeps (about 600 are written): past it a file is no record of a run. */
export const MAX_RECORD_UNITS = 100_000;
/** The longest stretch of time a record may cover: twice the longest run, as a warm-up, idle gaps and drain never double it. */
export const MAX_RECORD_SPAN_MS = 2 * MAX_RUN_SECONDS * 1000;
const DAY_MS = 86_400_000;

/** Why a record's units cover no run the harness could have made; undefined when they could. */
function implausibleSpan(units: number, unitMs: number): string | undefined {
  const span = units * unitMs;
  if (span <= MAX_RECORD_SPAN_MS) return undefined;
  return `${units} units of ${formatDurationCompact(unitMs)} span ${Math.floor(span / DAY_MS)} days, longer than any run the harness records (at most ${MAX_RECORD_SPAN_MS / DAY_MS} days): not a record of a load run`;
}

const count = z.int().nonnegative();
const positive = z.number().positive();
const bucket = z.tuple([z.int().min(0).max(MAX_BUCKET_INDEX), count]);
const histogram = z.array(bucket).max(MAX_BUCKET_INDEX + 1);

const UNIT = z.strictObject({
  events: histogram,
  eventsMax: z.number().nonnegative(),
  token: histogram,
  tokenMax: z.number().nonnegative(),
  accepted: count,
  failed: count,
});

/** A load record as `load` writes it: every count a whole number, every bucket a duration, the warm-up inside the run. */
export const LOAD_RECORD_SCHEMA = z
  .object({
    format: z.literal(LOAD_RECORD_FORMAT),
    kind: z.literal("load"),
    settings: z.object({
      scenario: z.enum(SCENARIO_NAMES),
      rate: positive.nullable(),
      vus: z.int().positive(),
      durationSeconds: positive.nullable(),
      clientModel: z.enum(CLIENT_MODELS),
      expiresInSeconds: positive.nullable(),
    }),
    versions: z.object({ harness: z.string().max(100), k6: z.string().max(100) }),
    runId: z.string().max(200),
    startedAt: z.string().max(100),
    target: z.object({
      embedded: z.boolean(),
      origin: z.string().max(2000),
      sandbox: z
        .object({
          latencyMs: z.int().nonnegative(),
          faults: z.array(z.string().max(100)).max(100),
          throughputLimit: z.int().positive().optional(),
        })
        .optional(),
    }),
    instances: z.int().positive().max(10_000),
    unitMs: z.int().positive().max(86_400_000),
    warmUpUnits: count,
    units: z.array(UNIT).max(MAX_RECORD_UNITS),
    capacity: z
      .strictObject({
        kind: z.enum(["bracketed", "at-least", "none"]),
        held: positive.nullable(),
        broken: positive.nullable(),
        limitedAt: positive.nullable(),
        objectives: z.array(z.string().max(500)).max(100),
      })
      .optional(),
  })
  .refine((record) => record.warmUpUnits <= record.units.length, {
    path: ["warmUpUnits"],
    message: "the warm-up is longer than the run's units",
  })
  // Judging costs grow with the span's units and windows: a record no run could have written is refused unread.
  .superRefine((record, context) => {
    const problem = implausibleSpan(record.units.length, record.unitMs);
    if (problem !== undefined) context.addIssue({ code: "custom", path: ["units"], message: problem });
  });

/** `units[3].token[0][1]`, the way a reader finds the field in the file. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, i) => (typeof key === "number" ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`))
    .join("");
}

export type LoadRecordReading =
  | { readonly ok: true; readonly record: LoadRecord }
  | { readonly ok: false; readonly problem: string };

/** Whether a parsed JSON value claims to be a load record, of any version: then it is read as one or refused. */
export function claimsLoadRecord(value: unknown): boolean {
  const format = (value as { format?: unknown } | null)?.format;
  return typeof format === "string" && format.startsWith(LOAD_RECORD_FAMILY);
}

/** Validates a parsed baseline file; a problem names the first field that is wrong. */
export function parseLoadRecord(value: unknown): LoadRecordReading {
  const format = (value as { format?: unknown } | null)?.format;
  if (claimsLoadRecord(value) && format !== LOAD_RECORD_FORMAT) {
    return {
      ok: false,
      problem: `format ${String(format)} was written by another version of the harness (this one reads ${LOAD_RECORD_FORMAT}): record the baseline again`,
    };
  }
  const parsed = LOAD_RECORD_SCHEMA.safeParse(value);
  if (parsed.success) return { ok: true, record: parsed.data as LoadRecord };
  const issue = parsed.error.issues[0];
  const field = issue === undefined || issue.path.length === 0 ? "the record" : fieldPath(issue.path);
  return { ok: false, problem: `${field}: ${issue?.message ?? "invalid"}` };
}
