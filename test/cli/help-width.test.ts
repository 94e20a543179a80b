import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { Command } from "../../cli/command.ts";
import { renderHelp } from "../../cli/command.ts";
import { commands } from "../../cli/commands/index.ts";
import { main } from "../../cli/main.ts";

async function help(argv: readonly string[], env: NodeJS.ProcessEnv, terminal?: { columns: number }) {
  const stdout = new PassThrough().setEncoding("utf8");
  if (terminal) Object.assign(stdout, { isTTY: true, columns: terminal.columns });
  const stderr = new PassThrough().setEncoding("utf8");
  const code = await main(argv, commands, { stdout, stderr, env, signal: new AbortController().signal });
  expect(code).toBe(0);
  return String(stdout.read() ?? "");
}

/** The longest line, but for a line that is one word too long to break (a URL in an example). */
const longest = (text: string) =>
  Math.max(
    ...text
      .split("\n")
      .filter((line) => /\S\s+\S/.test(line.replace(/ \\$/, "").trim()))
      .map((line) => [...line].length),
  );
/** The words of a help text, wrapping's own continuation marks left out: no wrap may lose or add one. */
const words = (text: string) => text.split(/\s+/).filter((word) => word !== "" && word !== "\\");

const loaded: Command[] = await Promise.all(commands.map((entry) => entry.load()));

describe("--help fits the terminal", () => {
  it("piped, every line of every help is at most 100 characters", async () => {
    expect(longest(await help(["--help"], {}))).toBeLessThanOrEqual(100);
    for (const command of loaded) {
      const text = await help([command.name, "--help"], {});
      expect(longest(text), command.name).toBeLessThanOrEqual(100);
    }
  });

  it("on a terminal, its width; piped with $COLUMNS set, that width", async () => {
    for (const command of loaded) {
      expect(
        longest(await help([command.name, "--help"], {}, { columns: 60 })),
        command.name,
      ).toBeLessThanOrEqual(60);
      expect(
        longest(await help([command.name, "--help"], { COLUMNS: "80" })),
        command.name,
      ).toBeLessThanOrEqual(80);
    }
  });

  it("loses no word to wrapping", () => {
    for (const command of loaded) {
      expect(words(renderHelp(command, 60)), command.name).toEqual(words(renderHelp(command, 10_000)));
    }
  });

  it("hangs an option's wrapped description under its own column", () => {
    const text = renderHelp(loaded.find((command) => command.name === "contract") as Command, 80).split("\n");
    const at = text.findIndex((line) => line.startsWith("  --profile NAME "));
    const column = (text[at] ?? "").indexOf("fast (default");
    expect(column).toBeGreaterThan(10);
    expect(text[at + 1]).toMatch(new RegExp(`^ {${column}}\\S`));
  });

  it("wraps an example as shell continuations that run as the one command it was", () => {
    for (const command of loaded) {
      const [, examples = ""] = renderHelp(command, 60).split("\nExamples:\n");
      const wide = renderHelp(command, 10_000).split("\nExamples:\n")[1] ?? "";
      const asShellReadsIt = (text: string) =>
        text
          .replace(/ \\\n\s*/g, " ")
          .split("\n")
          .map((line) => line.trim().replace(/\s+/g, " "));
      expect(asShellReadsIt(examples), command.name).toEqual(asShellReadsIt(wide));
    }
  });
});
