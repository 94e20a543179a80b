import { CannotRunError, UsageError } from "../core/index.ts";
import type { CommandEntry, CommandIo } from "./command.ts";
import { parseCommandArgs, renderHelp } from "./command.ts";
import { didYouMean } from "./did-you-mean.ts";
import { ExitCode, exitCodeOf } from "./exit-codes.ts";
import { helpWidth, wrapHelpLine } from "./help-width.ts";
import { configRequested, describeConfigSource } from "./options/config-options.ts";

function renderOverview(commands: readonly CommandEntry[], lineWidth: number): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  const lines = [
    "event-harness — contract and load checks for the Event Submission API",
    "",
    "Usage: event-harness <command> [options]",
    "",
    "Commands:",
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    "",
    "Run `event-harness <command> --help` (or `event-harness help <command>`) for a command's options.",
    "`event-harness --version` (-V) prints the version and the commit it was packed from.",
    "Exit codes: 0 passed, 1 a check failed, 2 usage or configuration error, 3 could not decide.",
  ];
  return `${lines.flatMap((line) => wrapHelpLine(line, lineWidth)).join("\n")}\n`;
}

/**
 * An error's message as said: on one line, inert, and with every value a config file took from `${NAME}` shown as
 * that reference, since a secret under the wrong key would otherwise be quoted back into a CI log.
 */
async function errorText(
  message: string,
  references: ReadonlyMap<string, string> | undefined,
): Promise<string> {
  const { Redactor, inertText } = await import("../transport/index.ts");
  const redactor = new Redactor();
  for (const [value, reference] of references ?? []) {
    redactor.add(value, reference).add(value.trim(), reference);
  }
  return redactor.redact(inertText(message));
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
  // `help <command>` is `<command> --help`, as in git and npm.
  const helpFor = argv[0] === "help" && argv[1] !== undefined;
  const [name, ...rest] = helpFor ? argv.slice(1) : argv;
  let references: ReadonlyMap<string, string> | undefined;
  try {
    if (name === "--version" || name === "-V") {
      const { describeBuild, harnessBuild } = await import("./build-info.ts");
      io.stdout.write(`${describeBuild(harnessBuild())}\n`);
      return ExitCode.ok;
    }
    if (name === undefined || name === "--help" || name === "-h" || name === "help") {
      io.stdout.write(renderOverview(commands, helpWidth(io.stdout, io.env)));
      return name === undefined ? ExitCode.usage : ExitCode.ok;
    }
    const entry = commands.find((candidate) => candidate.name === name);
    if (!entry) {
      const names = commands.map((c) => c.name);
      throw new UsageError(
        "unknown-command",
        `unknown command '${name}'${didYouMean(name, names)} (commands: ${names.join(", ")})`,
      );
    }
    const command = await entry.load();
    if (helpFor || rest.includes("--help") || rest.includes("-h")) {
      io.stdout.write(renderHelp(command, helpWidth(io.stdout, io.env)));
      return ExitCode.ok;
    }
    const { options, positionals } = parseCommandArgs(command, rest);
    if ("config" in command.options && configRequested(options, io.env)) {
      // Loaded only when asked for: zod and the file's schema stay out of every other start.
      const { applyConfig } = await import("./config/index.ts");
      const applied = await applyConfig(command.options, options, io.env);
      if (applied !== undefined) {
        references = applied.references;
        // Every override named: a left-over variable from another shell can split token and events across servers.
        const overrides = applied.overrides.length === 0 ? "" : `: ${applied.overrides.join(", ")}`;
        io.stderr.write(
          `event-harness: settings from ${describeConfigSource(applied.source)} (flags and EVENT_API_* variables override it)${overrides}\n`,
        );
        return await command.run({
          options: applied.options as typeof options,
          positionals,
          io: { ...io, env: applied.env, configOverrides: applied.overrides, configFilled: applied.filled },
        });
      }
    }
    return await command.run({ options, positionals, io });
  } catch (error) {
    const said = await errorText(error instanceof Error ? error.message : String(error), references);
    if (error instanceof UsageError) {
      const help = error.command ?? (commands.some((c) => c.name === name) ? name : undefined);
      io.stderr.write(`event-harness: ${said} [${error.code}]\n`);
      io.stderr.write(`Run \`event-harness ${help ? `${help} ` : ""}--help\` for usage.\n`);
      return exitCodeOf(error);
    }
    if (error instanceof CannotRunError) {
      // A target that cannot be tested before any report exists: one sentence, "could not decide".
      io.stderr.write(`event-harness: ${said}\n`);
      return exitCodeOf(error);
    }
    io.stderr.write(`event-harness: internal error: ${said}\n`);
    if (io.env.EVENT_HARNESS_DEBUG && error instanceof Error && error.stack)
      io.stderr.write(`${error.stack}\n`);
    else io.stderr.write("Set EVENT_HARNESS_DEBUG=1 to see the stack trace.\n");
    return exitCodeOf(error);
  }
}
