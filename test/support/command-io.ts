import { PassThrough } from "node:stream";
import type { CommandIo } from "../../cli/command.ts";

/** A command's streams captured as text, for tests that call a command's pipeline directly. */
export interface CapturedIo {
  readonly io: CommandIo;
  stdout(): string;
  stderr(): string;
}

/** Streams that keep what is written, the environment given (nothing of the developer's) and a signal. */
export function capturedIo(
  env: NodeJS.ProcessEnv = {},
  signal: AbortSignal = new AbortController().signal,
): CapturedIo {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
  });
  stderr.setEncoding("utf8").on("data", (chunk: string) => {
    err += chunk;
  });
  return { io: { stdout, stderr, env, signal }, stdout: () => out, stderr: () => err };
}
