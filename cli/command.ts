import { parseArgs } from "node:util";
import { UsageError } from "../core/index.ts";
import type { Target } from "../transport/index.ts";
import { didYouMean } from "./did-you-mean.ts";
import {
  descriptionLines,
  PIPED_HELP_WIDTH,
  wrapHelpLine,
  wrapShellExample,
  wrapUsage,
} from "./help-width.ts";

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
  /** Heading the option is listed under in --help (e.g. the target options shared by commands); default "Options". */
  readonly group?: string;
  /** The numbers the option takes: declared with the option, so every reader of it checks the same bound. */
  readonly range?: { readonly min: number; readonly max: number };
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

type OptionValue<S extends OptionSpec> = S["type"] extends "boolean"
  ? boolean
  : S["multiple"] extends true
    ? readonly string[]
    : string;

export type ParsedOptions<O extends OptionSpecs> = { -readonly [K in keyof O]?: OptionValue<O[K]> };

/** Where a command reads and writes, injectable so CLI tests can run commands in-process. */
export interface CommandIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly env: NodeJS.ProcessEnv;
  /** Aborted on SIGINT/SIGTERM, so long-running commands stop cleanly. */
  readonly signal: AbortSignal;
  /**
   * The target `run` resolved once (its issuer's metadata read once, its preflight done) and hands to each part, so
   * no part reads the metadata again and every part sends the secret where the run's header says.
   */
  readonly resolvedTarget?: Target;
  /** Each setting of the config file a flag or variable replaced, as the header named it ("--timeout overrides timeout"). */
  readonly configOverrides?: readonly string[];
  /** Each flag (without --) whose value came from the config file rather than the command line. */
  readonly configFilled?: readonly string[];
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

/** Lists a set of options under their own heading in --help. */
export function inHelpGroup<O extends OptionSpecs>(group: string, options: O): O {
  return Object.fromEntries(Object.entries(options).map(([name, spec]) => [name, { ...spec, group }])) as O;
}

export function defineCommand<O extends OptionSpecs>(command: Command<O>): Command<O> {
  return command;
}

/** A command's run that hands its options to a pipeline loaded only when the command runs, never for --help. */
export function delegateTo<O extends OptionSpecs>(
  load: () => Promise<(options: ParsedOptions<O>, io: CommandIo) => Promise<number>>,
): Command<O>["run"] {
  return async ({ options, io }) => (await load())(options, io);
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
    const args = attachDashValues(command, argv);
    parsed = parseArgs({ args, options: config, allowPositionals: true, strict: true });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    // Node's words for a value left off at the end of the line: "Option '-d, --dir <value>' argument missing".
    const missing = /^Option '(?:-\w, )?--([^ ']+) <value>' argument missing/.exec(message);
    if (missing) throw new UsageError("missing-argument", `--${missing[1]} needs a value`, command.name);
    const ambiguous = /^Option '(-\w, )?--([^ ']+)' argument is ambiguous/.exec(message);
    if (ambiguous) {
      const name = ambiguous[2] ?? "";
      throw new UsageError(
        "missing-argument",
        `--${name} needs a value; a value that starts with a dash is written --${name}=VALUE`,
        command.name,
      );
    }
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

/** A number that starts with a dash, which parseArgs would take for an option. */
const NEGATIVE_NUMBER = /^-(\d|\.\d)/;

/**
 * Names unknown long options with the closest known one, and joins `--rate -5` into `--rate=-5` so the command's own
 * range check answers instead of the parser.
 */
function attachDashValues(command: Command, argv: readonly string[]): string[] {
  const shorts = new Map(
    Object.entries(command.options).flatMap(([name, spec]) =>
      spec.short ? [[spec.short, name] as const] : [],
    ),
  );
  const args: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? "";
    if (arg === "--") {
      args.push(...argv.slice(index));
      break;
    }
    const long = /^--([^=]+)(=.*)?$/s.exec(arg);
    const name = long ? long[1] : /^-[^-]$/.test(arg) ? shorts.get(arg.slice(1)) : undefined;
    if (long && name !== undefined && name !== "help" && !Object.hasOwn(command.options, name)) {
      throw new UsageError(
        "unknown-option",
        `unknown option '--${name}'${didYouMean(name, Object.keys(command.options), "--")}`,
        command.name,
      );
    }
    const spec = name === undefined ? undefined : command.options[name];
    const next = argv[index + 1];
    if (spec?.type === "string" && !long?.[2] && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      args.push(`--${name}=${next}`);
      index += 1;
      continue;
    }
    args.push(arg);
  }
  return args;
}

/** A command's --help, every line wrapped to `width` with hanging indents (examples as shell continuations). */
export function renderHelp(command: Command, width: number = PIPED_HELP_WIDTH): string {
  const title = `event-harness ${command.name} — `;
  const usage = `Usage: event-harness ${command.name} `;
  const lines = [
    ...wrapHelpLine(`${title}${command.summary}`, width, title.length),
    "",
    ...wrapUsage(`Usage: event-harness ${command.usage}`, width, usage.length),
  ];
  if (command.description) {
    lines.push("", ...descriptionLines(command.description).flatMap((line) => wrapHelpLine(line, width)));
  }
  const rows = Object.entries(command.options).map(([name, spec]) => {
    const flag = `${spec.short ? `-${spec.short}, ` : ""}--${name}${spec.type === "string" ? ` ${spec.valueName ?? "VALUE"}` : ""}`;
    // A description that already says "repeatable" is not told so twice.
    const repeatable = spec.multiple && !/\brepeatable\b/i.test(spec.description);
    const notes = [repeatable ? "repeatable" : "", spec.env ? `env ${spec.env}` : ""].filter(Boolean);
    const text = `${spec.description}${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`;
    return { group: spec.group ?? "Options", flag, text };
  });
  rows.push({ group: "Options", flag: "-h, --help", text: "Show this help." });
  const flagWidth = Math.max(...rows.map((row) => row.flag.length));
  const groups = [...new Set(["Options", ...rows.map((row) => row.group)])];
  for (const group of groups) {
    lines.push("", `${group}:`);
    for (const row of rows.filter((candidate) => candidate.group === group)) {
      lines.push(...wrapHelpLine(`  ${row.flag.padEnd(flagWidth)}  ${row.text}`, width));
    }
  }
  if (command.examples && command.examples.length > 0) {
    lines.push(
      "",
      "Examples:",
      ...command.examples.flatMap((example) => wrapShellExample(`  ${example}`, width)),
    );
  }
  return `${lines.join("\n")}\n`;
}
