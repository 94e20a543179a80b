import path from "node:path";
import { Writable } from "node:stream";
import type { K6Binary, K6RunResult } from "../../k6-tooling/index.ts";
import {
  freeLoopbackPort,
  K6_EXIT,
  k6InputArgs,
  resume,
  runK6,
  waitUntilPaused,
  writeK6Inputs,
} from "../../k6-tooling/index.ts";
import type { RunConfig, ScenarioPlan } from "../../load/index.ts";
import { executionSegment, executionSegmentSequence } from "../../load/index.ts";
import { formatDuration } from "../../reporting/index.ts";
import type { Redactor } from "../../transport/index.ts";
import { makeDirectory } from "../make-directory.ts";
import type { InstanceOutput } from "./merge-instances.ts";

/** How long the instances get to initialise their VUs and wait paused. */
const START_DEADLINE_MS = 120_000;
/** Lines of each instance's stderr kept to explain a failure. */
const STDERR_TAIL = 20;

export const SAMPLES_FILE = "samples.csv.gz";

export interface InstancesOptions {
  readonly count: number;
  readonly k6: K6Binary;
  readonly script: string;
  readonly config: RunConfig;
  readonly plan: ScenarioPlan;
  readonly reportDir: string;
  /** The k6 environment without the per-instance inputs. */
  readonly env: (inputsEnv: Readonly<Record<string, string>>) => Record<string, string>;
  readonly extraArgs: readonly string[];
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly redactor: Redactor;
  readonly signal: AbortSignal;
  readonly maxSeconds: number;
  /** Called once every instance runs, with their REST API addresses; returns what stops it (live progress). */
  readonly onStarted?: (addresses: readonly string[]) => () => void;
}

export interface InstancesResult {
  readonly outputs: readonly InstanceOutput[];
  readonly results: readonly K6RunResult[];
  /** Why there is no verdict (an instance failed to start or crashed), with its stderr; undefined when all ran. */
  readonly failure: string | undefined;
  readonly aborted: boolean;
  readonly timedOut: boolean;
}

/** Prefixes each line an instance prints, and keeps the last lines of its stderr. */
function prefixed(out: NodeJS.WritableStream, prefix: string, tail?: string[]): Writable {
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      const text = chunk.toString();
      if (tail) {
        for (const line of text.split("\n")) if (line !== "") tail.push(line);
        tail.splice(0, Math.max(0, tail.length - STDERR_TAIL));
      }
      out.write(text.replace(/^(?=.)/gm, prefix));
      done();
    },
  });
}

/**
 * Runs the scenario as `count` local k6 processes, each on its own execution segment of the same sequence: all
 * start paused, and once every one has initialised its VUs they are resumed together through k6's REST API.
 * Any instance that cannot start, crashes or ends without a summary stops the others: the run has no verdict.
 */
export async function runInstances(options: InstancesOptions): Promise<InstancesResult> {
  const { count } = options;
  const sequence = executionSegmentSequence(count);
  let stopProgress: (() => void) | undefined;
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  options.signal.addEventListener("abort", onAbort, { once: true });
  if (options.signal.aborted) stop.abort();
  const tails: string[][] = [];
  const outputs: InstanceOutput[] = [];
  const addresses: string[] = [];
  const runs: Promise<K6RunResult>[] = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const segment = executionSegment(i, count);
      const dir = path.join(options.reportDir, `instance-${i + 1}`);
      await makeDirectory(dir);
      const inputs = await writeK6Inputs(options.config, options.plan, dir);
      const samplesFile = path.join(dir, SAMPLES_FILE);
      const address = `127.0.0.1:${await freeLoopbackPort()}`;
      const tail: string[] = [];
      tails.push(tail);
      outputs.push({ segment, summaryFile: inputs.summaryFile, samplesFile });
      addresses.push(address);
      const prefix = `[k6 ${i + 1}/${count}] `;
      runs.push(
        runK6({
          k6: options.k6,
          script: options.script,
          env: options.env(inputs.env),
          args: [
            ...k6InputArgs(inputs),
            "--paused",
            "--address",
            address,
            "--execution-segment",
            segment,
            "--execution-segment-sequence",
            sequence,
            "--out",
            `csv=fileName=${samplesFile},timeFormat=unix_milli`,
            ...options.extraArgs,
          ],
          stdout: prefixed(options.stdout, prefix),
          stderr: prefixed(options.stderr, prefix, tail),
          redactor: options.redactor,
          signal: stop.signal,
          maxSeconds: options.maxSeconds,
          statusAddress: address,
        }),
      );
    }
    const settled = runs.map((run) =>
      run.then(
        () => undefined,
        () => undefined,
      ),
    );
    const ready = await Promise.all(
      addresses.map((address, i) =>
        waitUntilPaused(address, settled[i] as Promise<unknown>, START_DEADLINE_MS, stop.signal),
      ),
    );
    let failure: string | undefined;
    const notReady = ready.findIndex((ok) => !ok);
    if (notReady >= 0 && !stop.signal.aborted) {
      failure = `k6 instance ${notReady + 1}/${count} did not start (it exited or was not ready within ${formatDuration(START_DEADLINE_MS)})`;
      stop.abort();
    } else if (!stop.signal.aborted) {
      try {
        await Promise.all(addresses.map((address) => resume(address, stop.signal)));
        stopProgress = options.onStarted?.(addresses);
      } catch (error) {
        failure = `could not start the instances together: ${(error as Error).message}`;
        stop.abort();
      }
    }
    // An instance that crashes mid-run stops the others: a partial run gives no verdict.
    const results = await Promise.all(
      runs.map((run, i) =>
        run.then((result) => {
          const finished = result.exitCode === 0 || result.exitCode === K6_EXIT.thresholdsFailed;
          if (!finished && !result.aborted && failure === undefined) {
            failure = `k6 instance ${i + 1}/${count} (${outputs[i]?.segment}) ${result.timedOut ? "did not finish in time" : `exited with ${result.exitCode ?? "a signal"}`}`;
            stop.abort();
          }
          return result;
        }),
      ),
    );
    if (failure !== undefined) {
      const index = Number(/instance (\d+)/.exec(failure)?.[1] ?? 0) - 1;
      const tail = tails[index] ?? [];
      if (tail.length > 0) failure += `; its last stderr lines:\n${tail.map((l) => `  ${l}`).join("\n")}`;
    }
    return {
      outputs,
      results,
      failure,
      aborted: options.signal.aborted,
      timedOut: results.some((r) => r.timedOut),
    };
  } catch (error) {
    // k6 could not even be spawned: stop the ones that were.
    stop.abort();
    await Promise.allSettled(runs);
    throw error;
  } finally {
    stopProgress?.();
    options.signal.removeEventListener("abort", onAbort);
  }
}
