import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { CommandEntry } from "../../cli/command.ts";
import { defineCommand } from "../../cli/command.ts";
import { main } from "../../cli/main.ts";
import { UsageError } from "../../core/index.ts";
import { loadedEntry } from "../support/run-in-process.ts";

async function runMain(argv: readonly string[], entries: readonly CommandEntry[]) {
  const stdout = new PassThrough().setEncoding("utf8");
  const stderr = new PassThrough().setEncoding("utf8");
  const code = await main(argv, entries, { stdout, stderr, env: {}, signal: new AbortController().signal });
  return { code, stdout: String(stdout.read() ?? ""), stderr: String(stderr.read() ?? "") };
}

/** An entry whose module must not be loaded: loading it fails the test. */
function unloadable(name: string): CommandEntry {
  return {
    name,
    summary: `the ${name} command`,
    load: () => Promise.reject(new Error(`${name} was loaded`)),
  };
}

const echo = defineCommand({
  name: "echo",
  summary: "Prints its argument",
  usage: "echo <text> [options]",
  options: { loud: { type: "boolean", description: "Shout." } },
  positionals: { min: 1, max: 1 },
  async run({ options, positionals, io }) {
    const text = positionals[0] ?? "";
    io.stdout.write(`${options.loud ? text.toUpperCase() : text}\n`);
    return 0;
  },
});

describe("main", () => {
  it("lists every command for --help without loading any of them", async () => {
    const result = await runMain(["--help"], [unloadable("alpha"), unloadable("beta")]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("  alpha  the alpha command\n  beta   the beta command\n");
  });

  it("loads only the command asked for", async () => {
    const result = await runMain(["echo", "hi", "--loud"], [unloadable("alpha"), loadedEntry(echo)]);
    expect(result).toEqual({ code: 0, stdout: "HI\n", stderr: "" });
  });

  it("an unknown command is a usage error (exit 2) that names the commands, and loads none", async () => {
    const result = await runMain(["nope"], [unloadable("alpha")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command 'nope' (commands: alpha) [unknown-command]");
  });

  it("no command at all prints the overview and exits 2", async () => {
    const result = await runMain([], [unloadable("alpha")]);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain("Usage: event-harness <command> [options]");
  });

  it("a command's UsageError is exit 2 with a pointer to its help; any other error is exit 3", async () => {
    const failing = (error: Error) =>
      loadedEntry(
        defineCommand({
          name: "boom",
          summary: "Fails",
          usage: "boom",
          options: {},
          run: () => Promise.reject(error),
        }),
      );
    const usage = await runMain(["boom"], [failing(new UsageError("invalid-value", "no good", "boom"))]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe(
      "event-harness: no good [invalid-value]\nRun `event-harness boom --help` for usage.\n",
    );
    const internal = await runMain(["boom"], [failing(new Error("kaput"))]);
    expect(internal.code).toBe(3);
    expect(internal.stderr).toContain("event-harness: internal error: kaput");
  });
});
