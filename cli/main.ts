import { UsageError } from "../core/index.ts";
import type { CommandEntry, CommandIo } from "./command.ts";
import { parseCommandArgs, renderHelp } from "./command.ts";
import { ExitCode, exitCodeOf } from "./exit-codes.ts";

function renderOverview(commands: readonly CommandEntry[]): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    "event-harness — contract and load checks for the Event Submission API",
    "",
    "Usage: event-harness <command> [options]",
    "",
    "Commands:",
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    "",
    "Run `event-harness <command> --help` for a command's options.",
    "Exit codes: 0 passed, 1 a check failed, 2 usage or configuration error, 3 could not decide.",
    "",
  ].join("\n");
}

/**
 * Runs one command and returns its exit code; every error a command throws is caught here, and only here. Only the
 * command asked for is loaded.
 */
export async function main(
  argv: readonly string[],
  commands: readonly CommandEntry[],
  io: CommandIo,
): Promise<number> {
  const [name, ...rest] = argv;
  try {
    if (name === undefined || name === "--help" || name === "-h" || name === "help") {
      io.stdout.write(renderOverview(commands));
      return name === undefined ? ExitCode.usage : ExitCode.ok;
    }
    const entry = commands.find((candidate) => candidate.name === name);
    if (!entry) {
      throw new UsageError(
        "unknown-command",
        `unknown command '${name}' (commands: ${commands.map((c) => c.name).join(", ")})`,
      );
    }
    const command = await entry.load();
    if (rest.includes("--help") || rest.includes("-h")) {
      io.stdout.write(renderHelp(command));
      return ExitCode.ok;
    }
    const { options, positionals } = parseCommandArgs(command, rest);
    return await command.run({ options, positionals, io });
  } catch (error) {
    if (error instanceof UsageError) {
      const help = error.command ?? (commands.some((c) => c.name === name) ? name : undefined);
      io.stderr.write(`event-harness: ${error.message} [${error.code}]\n`);
      io.stderr.write(`Run \`event-harness ${help ? `${help} ` : ""}--help\` for usage.\n`);
      return exitCodeOf(error);
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`event-harness: internal error: ${message}\n`);
    if (io.env.EVENT_HARNESS_DEBUG && error instanceof Error && error.stack)
      io.stderr.write(`${error.stack}\n`);
    else io.stderr.write("Set EVENT_HARNESS_DEBUG=1 to see the stack trace.\n");
    return exitCodeOf(error);
  }
}
