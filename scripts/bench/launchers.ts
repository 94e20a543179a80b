// The two ways a benchmark can start the CLI, so each one says which it timed.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildCli, CLI_BUILD_DIR } from "../build/build-cli.ts";

/** The compiled CLI (what the packed package runs) and the repository's launcher (the TypeScript through tsx). */
export const LAUNCHERS = {
  compiled: path.join(CLI_BUILD_DIR, "event-harness.js"),
  tsx: fileURLToPath(new URL("../../bin/event-harness.js", import.meta.url)),
} as const;
export type LauncherName = keyof typeof LAUNCHERS;

const DESCRIPTIONS: Readonly<Record<LauncherName, string>> = {
  compiled:
    "the compiled CLI, dist/cli/event-harness.js (what the packed package runs), built from these sources now",
  tsx: "the repository's launcher, bin/event-harness.js (the TypeScript sources through tsx)",
};

/** The launcher a benchmark was asked for: the compiled CLI unless it says "tsx". */
export function launcherName(value: string | undefined): LauncherName {
  if (value === undefined || value === "compiled") return "compiled";
  if (value === "tsx") return "tsx";
  throw new Error(`the launcher is "compiled" or "tsx", not "${value}"`);
}

/** Makes `name` ready to time (the compiled CLI is built first, so it matches the sources) and says what it is. */
export async function prepareLauncher(name: LauncherName): Promise<{ cli: string; description: string }> {
  if (name === "compiled") await buildCli();
  return { cli: LAUNCHERS[name], description: DESCRIPTIONS[name] };
}
