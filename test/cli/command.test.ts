import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { CommandIo, OptionSpecs, ParsedOptions } from "../../cli/command.ts";
import { defineCommand, delegateTo, inHelpGroup, parseCommandArgs, renderHelp } from "../../cli/command.ts";
import { UsageError } from "../../core/index.ts";

const probe = defineCommand({
  name: "probe",
  summary: "Probes a target.",
  usage: "probe [options] <file>",
  options: {
    rate: { type: "string", description: "Events per second.", valueName: "N", env: "PROBE_RATE" },
    dir: { type: "string", short: "d", description: "Where reports go." },
    fault: { type: "string", multiple: true, description: "A fault to switch on." },
    quiet: { type: "boolean", short: "q", description: "Print less." },
  },
  positionals: { min: 1, max: 1 },
  run: async () => 0,
});

/** The UsageError `argv` is refused with. */
function refusal(argv: readonly string[]): UsageError {
  try {
    parseCommandArgs(probe, argv);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error(`${JSON.stringify(argv)} was accepted`);
}

function io(): CommandIo {
  return {
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    env: {},
    signal: new AbortController().signal,
  };
}

describe("parseCommandArgs", () => {
  it("reads strings, short flags, repeated options and positionals", () => {
    expect(
      parseCommandArgs(probe, [
        "--rate",
        "5",
        "-d",
        "out",
        "--fault",
        "a",
        "--fault",
        "b",
        "-q",
        "events.json",
      ]),
    ).toEqual({
      options: { rate: "5", dir: "out", fault: ["a", "b"], quiet: true },
      positionals: ["events.json"],
    });
  });

  it("takes a negative number after a string option as its value, so the range check answers", () => {
    expect(parseCommandArgs(probe, ["--rate", "-5", "f"]).options).toEqual({ rate: "-5" });
    expect(parseCommandArgs(probe, ["-d", "-.5", "f"]).options).toEqual({ dir: "-.5" });
    expect(parseCommandArgs(probe, ["--rate=-7", "f"]).options).toEqual({ rate: "-7" });
  });

  it("names an unknown long option with the closest known one, for the command's help", () => {
    const error = refusal(["--rte", "1", "f"]);
    expect(error.code).toBe("unknown-option");
    expect(error.command).toBe("probe");
    expect(error.message).toBe("unknown option '--rte'; did you mean '--rate'?");
  });

  it("refuses an unknown option with no close name without a guess", () => {
    const error = refusal(["--zzzzzzzz", "f"]);
    expect(error.code).toBe("unknown-option");
    expect(error.message).toBe("unknown option '--zzzzzzzz'");
  });

  it("refuses an inherited property name as an option, not as a known one", () => {
    expect(refusal(["--constructor", "x", "f"]).message).toMatch(/^unknown option '--constructor'/);
  });

  it("says a value starting with a dash needs `=` when an option would swallow another option", () => {
    const error = refusal(["--dir", "--quiet", "f"]);
    expect(error.code).toBe("missing-argument");
    expect(error.message).toBe("--dir needs a value; a value that starts with a dash is written --dir=VALUE");
  });

  it("refuses a missing value and a value given to a flag, naming the option and none of Node's advice", () => {
    const missing = refusal(["f", "--dir"]);
    expect(missing.code).toBe("missing-argument");
    expect(missing.message).toBe("--dir needs a value");
    expect(missing.command).toBe("probe");
    const flagValue = refusal(["--quiet=yes", "f"]);
    expect(flagValue.code).toBe("unknown-option");
    expect(flagValue.message).toContain("--quiet");
    expect(flagValue.message).not.toContain("To specify a positional");
  });

  it("counts positionals against the command's bounds", () => {
    const few = refusal([]);
    expect(few.code).toBe("missing-argument");
    expect(few.message).toBe("expected 1 argument(s): probe [options] <file>");
    const many = refusal(["f", "g"]);
    expect(many.code).toBe("unknown-option");
    expect(many.message).toBe("unexpected argument 'g': probe [options] <file>");
  });

  it("takes everything after `--` as positionals, an option's name included", () => {
    expect(parseCommandArgs(probe, ["--", "--rate"])).toEqual({ options: {}, positionals: ["--rate"] });
  });

  it("takes no positional from a command that declares none", () => {
    const bare = defineCommand({ name: "bare", summary: "", usage: "bare", options: {}, run: async () => 0 });
    expect(parseCommandArgs(bare, [])).toEqual({ options: {}, positionals: [] });
    expect(() => parseCommandArgs(bare, ["x"])).toThrow("unexpected argument 'x': bare");
  });
});

describe("delegateTo", () => {
  it("loads the pipeline only when the command runs, and hands it the options and io", async () => {
    const seen: { options?: ParsedOptions<OptionSpecs>; io?: CommandIo } = {};
    let loads = 0;
    const run = delegateTo<OptionSpecs>(async () => {
      loads += 1;
      return async (options, given) => {
        seen.options = options;
        seen.io = given;
        return 7;
      };
    });
    expect(loads).toBe(0);
    const given = io();
    await expect(run({ options: { dir: "out" }, positionals: [], io: given })).resolves.toBe(7);
    expect(loads).toBe(1);
    expect(seen.options).toEqual({ dir: "out" });
    expect(seen.io).toBe(given);
  });
});

describe("inHelpGroup", () => {
  it("sets the heading of every option it is given and leaves the originals as they were", () => {
    const options = {
      url: { type: "string", description: "The URL." },
      verbose: { type: "boolean", description: "" },
    } as const;
    const grouped = inHelpGroup("Target", options);
    expect(grouped).toEqual({
      url: { type: "string", description: "The URL.", group: "Target" },
      verbose: { type: "boolean", description: "", group: "Target" },
    });
    expect(options.url).not.toHaveProperty("group");
  });
});

describe("renderHelp", () => {
  it("lists title, usage and options with their placeholders, notes and the help flag, aligned", () => {
    expect(renderHelp(probe)).toBe(
      [
        "event-harness probe — Probes a target.",
        "",
        "Usage: event-harness probe [options] <file>",
        "",
        "Options:",
        "  --rate N         Events per second. (env PROBE_RATE)",
        "  -d, --dir VALUE  Where reports go.",
        "  --fault VALUE    A fault to switch on. (repeatable)",
        "  -q, --quiet      Print less.",
        "  -h, --help       Show this help.",
        "",
      ].join("\n"),
    );
  });

  it("lists grouped options under their heading after Options, with the description and examples", () => {
    const command = defineCommand({
      name: "send",
      summary: "Sends.",
      usage: "send [options]",
      description: "Sends one event.",
      options: {
        ...inHelpGroup("Target options", {
          "base-url": { type: "string", description: "The API. Repeatable.", multiple: true, env: "BASE" },
        }),
        seed: { type: "string", description: "The seed." },
      },
      examples: ["event-harness send --seed 1"],
      run: async () => 0,
    });
    const lines = renderHelp(command).split("\n");
    expect(lines).toContain("Sends one event.");
    const options = lines.indexOf("Options:");
    const target = lines.indexOf("Target options:");
    expect(options).toBeGreaterThan(0);
    expect(target).toBeGreaterThan(options);
    expect(lines.slice(options, target).join("\n")).toContain("--seed VALUE");
    expect(lines.slice(options, target).join("\n")).toContain("-h, --help");
    // The description already says it, so "repeatable" is not added a second time.
    expect(lines[target + 1]).toBe("  --base-url VALUE  The API. Repeatable. (env BASE)");
    expect(lines.slice(lines.indexOf("Examples:") + 1)).toEqual(["  event-harness send --seed 1", ""]);
  });

  it("wraps every line with a space in it to the width, losing no word", () => {
    const long = "word ".repeat(40).trim();
    const command = defineCommand({
      name: "wide",
      summary: long,
      usage: "wide [options]",
      description: long,
      options: { flag: { type: "boolean", description: long } },
      run: async () => 0,
    });
    const text = renderHelp(command, 50);
    for (const line of text.split("\n")) expect(line.length).toBeLessThanOrEqual(50);
    expect(text.split(/\s+/).filter((word) => word === "word")).toHaveLength(120);
  });
});
