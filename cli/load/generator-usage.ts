import type { CpuReadiness, CpuShare, K6CpuRecord, K6RunResult } from "../../k6-tooling/index.ts";
import { cpuShare } from "../../k6-tooling/index.ts";
import type { GeneratorUsage } from "../../reporting/load/index.ts";

/**
 * What the k6 processes of a run used, for the generator judgement: the busiest process's CPU share over the test
 * (or over `window` of each process's record, e.g. a capacity step's judged part), the readiest stretch of any
 * of them (ready to run, running or waiting for a CPU), and their "Insufficient VUs" warnings added up.
 */
export function generatorUsage(
  results: readonly Pick<K6RunResult, "cpu" | "insufficientVus">[],
  window: (record: K6CpuRecord) => readonly [number, number] = () => [-Infinity, Infinity],
): GeneratorUsage {
  const shares = results.flatMap((result) => {
    if (result.cpu === undefined) return [];
    const share = cpuShare(result.cpu, ...window(result.cpu));
    return share === undefined ? [] : [share];
  });
  const busiest = shares.reduce<CpuShare | undefined>(
    (top, share) => (top === undefined || share.busiestShare > top.busiestShare ? share : top),
    undefined,
  );
  // The process whose threads were most ready to run speaks for the run's waiting.
  const readiest = shares.reduce<CpuReadiness | undefined>(
    (top, share) =>
      share.ready !== undefined && (top === undefined || share.ready.readyShare > top.readyShare)
        ? share.ready
        : top,
    undefined,
  );
  return {
    // Where no process has run-queue times, the busiest has none either, so nothing stale is left in its place.
    cpu:
      busiest === undefined
        ? undefined
        : { ...busiest, processes: shares.length, ...(readiest === undefined ? {} : { ready: readiest }) },
    insufficientVus: results.reduce((sum, result) => sum + result.insufficientVus, 0),
  };
}
