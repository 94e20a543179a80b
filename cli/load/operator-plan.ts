import { z } from "zod";
import { UsageError } from "../../core/index.ts";
import { PLAN_FORMAT } from "../../k6-tooling/index.ts";
import { CLIENT_MODELS, RUN_BOUNDS, SCENARIO_NAMES } from "../../load/index.ts";
import type { ReportContext } from "../../reporting/load/index.ts";
import { readInputFile } from "../../transport/index.ts";

const seconds = z.number().finite().nonnegative().max(31_536_000);
const count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const text = (max: number) => z.string().max(max);

const idleGapPlan = z.strictObject({
  shortGapSeconds: seconds,
  shortGaps: count,
  midGapSeconds: seconds,
  longGapSeconds: seconds,
  cycles: count,
  burst: count,
  iterationsPerVu: count,
  idleSecondsPerVu: seconds,
});

/** The report context `load --k6-operator` stored: every field a report reads, bounded, and nothing else. */
const reportContext = z
  .strictObject({
    scenario: z.enum(SCENARIO_NAMES),
    runId: text(200),
    targetLabel: text(2000),
    clientModel: z.enum(CLIENT_MODELS),
    rate: z.number().finite().positive().max(10_000_000).optional(),
    durationSeconds: seconds.optional(),
    vus: count.min(1).max(10_000_000),
    expiresInSeconds: seconds.optional(),
    marginSeconds: seconds,
    plannedIterations: count.optional(),
    warmUpSeconds: seconds,
    idleGap: idleGapPlan.optional(),
    arrivals: z
      .strictObject({
        peakRate: z.number().finite().positive().max(10_000_000),
        maxVus: count.min(1).max(10_000_000),
      })
      .optional(),
    warnings: z.array(text(2000)).max(100),
    overrides: z.array(text(500)).max(100).optional(),
  })
  .transform(
    ({ overrides, arrivals, ...c }): ReportContext => ({
      ...c,
      ...(arrivals === undefined ? {} : { arrivals }),
      rate: c.rate,
      durationSeconds: c.durationSeconds,
      expiresInSeconds: c.expiresInSeconds,
      plannedIterations: c.plannedIterations,
      idleGap: c.idleGap,
      ...(overrides === undefined ? {} : { overrides }),
    }),
  );

const operatorPlan = z.strictObject({
  format: z.literal(PLAN_FORMAT),
  context: reportContext,
  // Written from --instances: the same bound.
  parallelism: z.number().int().min(RUN_BOUNDS.instances.min).max(RUN_BOUNDS.instances.max),
});

export type OperatorPlan = z.output<typeof operatorPlan>;

/** Reads a plan.json, checked against its schema; a problem is a usage error naming the field, never its value. */
export async function readOperatorPlan(file: string): Promise<OperatorPlan> {
  const reading = await readInputFile(file);
  if (!reading.ok) throw new UsageError("invalid-value", `--plan ${file}: ${reading.problem}`, "load-merge");
  let data: unknown;
  try {
    data = JSON.parse(reading.text);
  } catch {
    // JSON.parse quotes the text around the error: the file is untrusted and may hold a secret.
    throw new UsageError("invalid-value", `--plan ${file} is not valid JSON`, "load-merge");
  }
  const format = (data as { format?: unknown } | null)?.format;
  if (format !== PLAN_FORMAT)
    throw new UsageError("invalid-value", `--plan ${file} is not a ${PLAN_FORMAT} file`, "load-merge");
  const parsed = operatorPlan.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(top)"}: ${issue.code}`);
    throw new UsageError("invalid-value", `--plan ${file}: ${problems.join("; ")}`, "load-merge");
  }
  return parsed.data;
}
