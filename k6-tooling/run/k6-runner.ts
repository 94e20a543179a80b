import type { ChildProcess } from "node:child_process";
import { spawn } from "node:child_process";
import type { WriteStream } from "node:fs";
import { createWriteStream } from "node:fs";
import { createInterface } from "node:readline";
import { VU_BODY_CAP_ENV } from "../../load/index.ts";
import { MAX_RESPONSE_BODY_BYTES } from "../../transport/connection/index.ts";
import { timerDelay } from "../../transport/deadline/index.ts";
import type { Redactor } from "../../transport/index.ts";
import type { K6Binary } from "../binary/k6-binary.ts";
import type { K6CpuRecord } from "./k6-cpu.ts";
import { monitorK6Cpu } from "./k6-cpu.ts";

/** After SIGINT, k6 gets this long to stop gracefully and write its summary before it is killed. */
const KILL_GRACE_MS = 15_000;

/** k6 exit codes (go.k6.io/k6/v2/errext/exitcodes) the harness explains. */
export const K6_EXIT = {
  thresholdsFailed: 99,
  invalidConfig: 104,
  scriptException: 107,
  scriptAborted: 108,
} as const;

export interface K6RunResult {
  /** k6's exit code, or undefined when it was killed (abort or watchdog). */
  readonly exitCode: number | undefined;
  readonly aborted: boolean;
  readonly timedOut: boolean;
  /** k6's own level=error log lines, written to the log file (0 without one), but for its thresholds verdict. */
  readonly loggedErrors: number;
  /**
   * k6's warning that an arrival-rate scenario found no VU free for an iteration (`Insufficient VUs, reached 5
   * active VUs and cannot initialize more`): the cause of its dropped iterations, for the reports.
   */
  readonly vuShortage?: string;
  /** How often k6 warned that an arrival-rate scenario ran out of VUs ("Insufficient VUs"). */
  readonly insufficientVus: number;
  /** k6's CPU time while it ran, sampled from /proc (undefined where there is none). */
  readonly cpu: K6CpuRecord | undefined;
}

export interface K6RunOptions {
  readonly k6: K6Binary;
  readonly script: string;
  readonly env: Record<string, string>;
  readonly args?: readonly string[];
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly redactor: Redactor;
  readonly signal: AbortSignal;
  /** Hard cap: k6 is stopped (SIGINT, then SIGKILL) after this long. */
  readonly maxSeconds: number;
  /** Where k6's own log lines (logfmt, `level=…`) go instead of the console, redacted like the rest. */
  readonly logFile?: string;
  /** k6's REST API (its --address), asked while sampling k6's CPU whether the test is running. */
  readonly statusAddress?: string;
}

/** A line of k6's logger (logrus, logfmt with --no-color): `time="…" level=error msg="…"`. */
const K6_LOG_LINE = /^time="[^"]*" level=(\w+)/;
/** k6's warning that an arrival-rate scenario reached its maxVUs (lib/executor, ramping and constant arrival rate). */
const INSUFFICIENT_VUS = /^time="[^"]*" level=warning msg="Insufficient VUs, /;
/** k6's own verdict on failed thresholds, logged at level error: the harness reports thresholds itself. */
const THRESHOLDS_CROSSED = /^time="[^"]*" level=error msg="thresholds on metrics .* have been crossed"$/;

/** k6's warning of an arrival-rate scenario without a free VU, logged once per scenario (logfmt, quoted message). */
const VU_SHORTAGE = /^time="[^"]*" level=warning msg="(Insufficient VUs[^"]*)"/;

/** The console gets k6's other lines; its log lines go to the file, counted by level. */
class K6Log {
  #file: WriteStream | undefined;
  errors = 0;
  constructor(readonly path: string) {}

  /** True when the line was k6's log and is now in the file. */
  take(line: string): boolean {
    const level = K6_LOG_LINE.exec(line)?.[1];
    if (level === undefined) return false;
    if ((level === "error" || level === "fatal") && !THRESHOLDS_CROSSED.test(line)) this.errors += 1;
    this.#file ??= createWriteStream(this.path, { flags: "a" });
    this.#file.write(`${line}\n`);
    return true;
  }

  close(): Promise<void> {
    const file = this.#file;
    if (file === undefined) return Promise.resolve();
    return new Promise((resolve) => file.end(resolve));
  }
}

/** Relays k6's output line by line as untrusted text (it may quote a target): controls shown, secrets hidden. */
function relay(
  stream: NodeJS.ReadableStream,
  out: NodeJS.WritableStream,
  redactor: Redactor,
  log?: K6Log,
  seen?: (line: string) => void,
): Promise<void> {
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on("line", (line) => {
    const safe = redactor.untrusted(line);
    seen?.(safe);
    if (log?.take(safe) !== true) out.write(`${safe}\n`);
  });
  return new Promise((resolve) => lines.once("close", resolve));
}

/**
 * The run's environment, plus the body cap when this k6 is the harness's own build (k6/x/harness): the scripts load
 * the extension only then, so a k6 of the user's own still runs them (without the cap).
 */
export function withBodyCap(
  k6: Pick<K6Binary, "harnessExtension">,
  env: Readonly<Record<string, string>>,
): Record<string, string> {
  if (!k6.harnessExtension) return { ...env };
  return { ...env, [VU_BODY_CAP_ENV]: String(MAX_RESPONSE_BODY_BYTES) };
}

/** Runs `k6 run` with secrets in its environment only, relaying redacted output; stops k6 on abort or timeout. */
export async function runK6(options: K6RunOptions): Promise<K6RunResult> {
  const child: ChildProcess = spawn(
    options.k6.path,
    ["run", "--quiet", "--no-color", ...(options.args ?? []), options.script],
    { env: withBodyCap(options.k6, options.env), stdio: ["ignore", "pipe", "pipe"] },
  );
  const log = options.logFile === undefined ? undefined : new K6Log(options.logFile);
  const cpu = monitorK6Cpu(child.pid, options.statusAddress);
  let insufficientVus = 0;
  let vuShortage: string | undefined;
  const countWarnings = (line: string) => {
    if (INSUFFICIENT_VUS.test(line)) insufficientVus += 1;
    vuShortage ??= VU_SHORTAGE.exec(line)?.[1];
  };
  let aborted = false;
  let timedOut = false;
  let killTimer: NodeJS.Timeout | undefined;
  const stop = () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGINT");
    killTimer ??= setTimeout(() => child.kill("SIGKILL"), KILL_GRACE_MS);
  };
  const onAbort = () => {
    aborted = true;
    stop();
  };
  options.signal.addEventListener("abort", onAbort, { once: true });
  if (options.signal.aborted) onAbort();
  const watchdog = setTimeout(
    () => {
      timedOut = true;
      stop();
    },
    timerDelay(options.maxSeconds * 1000),
  );
  try {
    const relayed = Promise.all([
      relay(child.stdout as NodeJS.ReadableStream, options.stdout, options.redactor),
      relay(child.stderr as NodeJS.ReadableStream, options.stderr, options.redactor, log, countWarnings),
    ]);
    const exitCode = await new Promise<number | undefined>((resolve, reject) => {
      child.once("error", reject);
      child.once("close", (code) => resolve(code ?? undefined));
    });
    await relayed;
    return {
      exitCode,
      aborted,
      timedOut,
      loggedErrors: log?.errors ?? 0,
      ...(vuShortage === undefined ? {} : { vuShortage }),
      insufficientVus,
      cpu: await cpu.stop(),
    };
  } finally {
    await cpu.stop();
    await log?.close();
    clearTimeout(watchdog);
    if (killTimer) clearTimeout(killTimer);
    options.signal.removeEventListener("abort", onAbort);
  }
}
