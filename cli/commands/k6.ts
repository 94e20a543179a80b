import { defineCommand, delegateTo } from "../command.ts";
import { k6Options } from "../options/k6-options.ts";

export const k6Command = defineCommand({
  name: "k6",
  summary: "Show which k6 the load command uses, or build the pinned k6 v2",
  usage: "k6 [--install] [--print-path]",
  description: [
    "k6 is resolved as K6_BIN, then `k6` on PATH, then the project-local .tools/bin/k6 (k6 v2.x only).",
    "--install builds the pinned version (tools/k6/go.mod) with Go when none is found: once, about 1–2 minutes.",
    "The load command does the same by itself, so --install only warms a fresh machine (as .ci/run does).",
  ].join("\n"),
  options: k6Options,
  examples: [
    "event-harness k6",
    "event-harness k6 --install",
    "K6_BIN=/opt/k6/k6 event-harness k6 --print-path",
  ],
  // The machinery loads only when the command runs.
  run: delegateTo(async () => (await import("../k6/index.ts")).showK6),
});
