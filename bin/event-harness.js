#!/usr/bin/env node
// @ts-check
// The Node.js version is checked before anything else loads: an unsupported one gets one sentence and exit 2 (a
// configuration error, cli/exit-codes.ts), never a stack trace from deep inside a dependency. This file and
// node-support.js use no syntax newer than Node.js 12 parses (no top-level await), so the check itself always runs.
// In a source checkout the CLI runs from its TypeScript (through tsx), so an edit never meets a stale build;
// the packed package ships no sources and runs the compiled CLI, so nothing is compiled at start.
import { existsSync, readFileSync } from "node:fs";
import { unsupportedNodeSentence } from "./node-support.js";

const USAGE_EXIT_CODE = 2;
const INTERNAL_EXIT_CODE = 3;

async function start() {
  const sources = new URL("../cli/entry.ts", import.meta.url);
  if (existsSync(sources)) {
    const { register } = await import("tsx/esm/api");
    register();
    await import(sources.href);
  } else {
    await import(new URL("../dist/cli/event-harness.js", import.meta.url).href);
  }
}

const packageJson = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const refusal = unsupportedNodeSentence(process.versions.node, packageJson);
if (refusal === undefined) {
  start().catch((error) => {
    // Only a failure to load the CLI gets past cli/main.ts: an internal error (3), with what Node says of it.
    console.error("event-harness: internal error: the CLI could not be loaded:", error);
    process.exitCode = INTERNAL_EXIT_CODE;
  });
} else {
  process.stderr.write(`event-harness: ${refusal}\n`);
  process.exitCode = USAGE_EXIT_CODE;
}
