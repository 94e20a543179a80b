import type { Command, CommandEntry } from "../../cli/command.ts";
import { commands } from "../../cli/commands/index.ts";
import { main } from "../../cli/main.ts";
import { capturedIo } from "./command-io.ts";

/** A registry entry for a command already in memory, so tests hand main() exactly the commands they run. */
export function loadedEntry(command: Command): CommandEntry {
  return { name: command.name, summary: command.summary, load: async () => command };
}

export interface InProcessRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs one command through the CLI's main in this process, with captured streams and an injectable signal. */
export function runInProcess(
  command: Command,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  signal: AbortSignal = new AbortController().signal,
): Promise<InProcessRun> {
  return captured([command.name, ...args], [loadedEntry(command)], env, signal);
}

/**
 * Runs a command line through the CLI's main in this process, with every command of the registry, as the real CLI
 * does but with captured streams and only the environment given (so a developer's own EVENT_API_* never leak in).
 */
export function runCliInProcess(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  signal: AbortSignal = new AbortController().signal,
): Promise<InProcessRun> {
  return captured(args, commands, env, signal);
}

async function captured(
  argv: readonly string[],
  entries: readonly CommandEntry[],
  env: NodeJS.ProcessEnv,
  signal: AbortSignal,
): Promise<InProcessRun> {
  const { io, stdout, stderr } = capturedIo(env, signal);
  const code = await main(argv, entries, io);
  return { code, stdout: stdout(), stderr: stderr() };
}

/** The variables a command needs to find its tools (k6 on PATH or K6_BIN, HOME for Go's caches), and only those. */
export function toolEnv(): NodeJS.ProcessEnv {
  const { PATH, HOME, K6_BIN } = process.env;
  return {
    ...(PATH === undefined ? {} : { PATH }),
    ...(HOME === undefined ? {} : { HOME }),
    ...(K6_BIN === undefined ? {} : { K6_BIN }),
  };
}
