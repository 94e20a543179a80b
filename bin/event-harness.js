#!/usr/bin/env node
// In a source checkout the CLI runs from its TypeScript (through tsx), so an edit never meets a stale build;
// the packed package ships no sources and runs the compiled CLI, so nothing is compiled at start.
import { existsSync } from "node:fs";

const sources = new URL("../cli/entry.ts", import.meta.url);
if (existsSync(sources)) {
  const { register } = await import("tsx/esm/api");
  register();
  await import(sources.href);
} else {
  await import("../dist/cli/event-harness.js");
}
