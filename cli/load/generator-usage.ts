import type { CpuShare, K6CpuRecord, K6RunResult } from "../../k6-tooling/index.ts";
import { cpuShare } from "../../k6-tooling/index.ts";
import type { GeneratorUsage } from "../../reporting/load/index.ts";

/**
 * What the k6 processes of a run used, for the generator judgement: the busiest process's CPU share over the test
 * (or over `window` of each process's record, e.g. a capacity step's judged part), the longest any of them waited for
 * a CPU, and their "Insufficient VUs" warnings added up.
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
  const readiest = shares.reduce<CpuShare["ready"]>(
    (top, share) =>
      share.ready !== undefined && (top === undefined || share.ready.readyShare > top.readyShare)
        ? share.ready
        : top,
    undefined,
  );
  const { cpus, meanShare, busiestShare, seconds } = busiest ?? {};
  return {
    cpu:
      cpus === undefined || meanShare === undefined || busiestShare === undefined || seconds === undefined
        ? undefined
        : {
            cpus,
            meanShare,
            busiestShare,
            seconds,
            processes: shares.length,
            ...(readiest === undefined ? {} : { ready: readiest }),
          },
    insufficientVus: results.reduce((sum, result) => sum + result.insufficientVus, 0),
  };
}
