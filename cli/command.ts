import { parseArgs } from "node:util";
import { UsageError } from "../core/index.ts";

export interface OptionSpec {
  readonly type: "string" | "boolean";
  readonly description: string;
  readonly short?: string;
  /** The option may be given several times; its value is then a list. */
  readonly multiple?: boolean;
  /** Placeholder shown in --help, e.g. `N` in `--port N`. */
  readonly valueName?: string;
  /** Environment variable read when the option is absent; shown in --help. */
  readonly env?: string;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

type OptionValue<S extends OptionSpec> = S["type"] extends "boolean"
  ? boolean
  : S["multiple"] extends true
    ? string[]
    : string;

export type ParsedOptions<O extends OptionSpecs> = { -readonly [K in keyof O]?: OptionValue<O[K]> };

/** Where a command reads and writes, injectable so CLI tests can run commands in-process. */
export interface CommandIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly env: NodeJS.ProcessEnv;
  /** Aborted on SIGINT/SIGTERM, so long-running commands stop cleanly. */
  readonly signal: AbortSignal;
}

export interface CommandInput<O extends OptionSpecs> {
  readonly options: ParsedOptions<O>;
  readonly positionals: readonly string[];
  readonly io: CommandIo;
}

export interface Command<O extends OptionSpecs = OptionSpecs> {
  readonly name: string;
  readonly summary: string;
  /** Usage line after `event-harness`, e.g. `sandbox [options]`. */
  readonly usage: string;
  readonly description?: string;
  readonly options: O;
  readonly positionals?: { readonly min: number; readonly max: number };
  readonly examples?: readonly string[];
  /** Resolves to the process exit code. */
  run(input: CommandInput<O>): Promise<number>;
}

export function defineCommand<O extends OptionSpecs>(command: Command<O>): Command<O> {
  return command;
}

/** What the CLI knows of a command before loading it: `--help` lists entries without importing any command. */
export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  readonly load: () => Promise<Command>;
}

/** Parses argv strictly: an unknown option or a missing value is a UsageError, not a silent default. */
export function parseCommandArgs<O extends OptionSpecs>(
  command: Command<O>,
  argv: readonly string[],
): { options: ParsedOptions<O>; positionals: string[] } {
  const config: Record<string, { type: "string" | "boolean"; short?: string; multiple?: boolean }> = {};
  for (const [name, spec] of Object.entries(command.options)) {
    config[name] = {
      type: spec.type,
      ...(spec.short === undefined ? {} : { short: spec.short }),
      ...(spec.multiple === undefined ? {} : { multiple: spec.multiple }),
    };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options: config, allowPositionals: true, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(
      "unknown-option",
      message.replace(/\. To specify a positional.*$/s, ""),
      command.name,
    );
  }
  const { min = 0, max = 0 } = command.positionals ?? {};
  if (parsed.positionals.length < min) {
    throw new UsageError("missing-argument", `expected ${min} argument(s): ${command.usage}`, command.name);
  }
  if (parsed.positionals.length > max) {
    throw new UsageError(
      "unknown-option",
      `unexpected argument '${parsed.positionals[max]}': ${command.usage}`,
      command.name,
    );
  }
  return { options: parsed.values as ParsedOptions<O>, positionals: parsed.positionals };
}

export function renderHelp(command: Command): string {
  const lines = [
    `event-harness ${command.name} — ${command.summary}`,
    "",
    `Usage: event-harness ${command.usage}`,
  ];
  if (command.description) lines.push("", command.description);
  const rows = Object.entries(command.options).map(([name, spec]) => {
    const flag = `${spec.short ? `-${spec.short}, ` : ""}--${name}${spec.type === "string" ? ` ${spec.valueName ?? "VALUE"}` : ""}`;
    const notes = [spec.multiple ? "repeatable" : "", spec.env ? `env ${spec.env}` : ""].filter(Boolean);
    return [flag, `${spec.description}${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`] as const;
  });
  rows.push(["-h, --help", "Show this help."]);
  const width = Math.max(...rows.map(([flag]) => flag.length));
  lines.push("", "Options:", ...rows.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`));
  if (command.examples && command.examples.length > 0) {
    lines.push("", "Examples:", ...command.examples.map((example) => `  ${example}`));
  }
  return `${lines.join("\n")}\n`;
}
