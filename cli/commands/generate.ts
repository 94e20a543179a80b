import { INVALID_VARIANTS } from "../../generators/index.ts";
import { defineCommand, delegateTo } from "../command.ts";
import { generateOptions } from "../options/generate-options.ts";

export const generateCommand = defineCommand({
  name: "generate",
  summary: "Write seeded checkout events (valid or invalid) as NDJSON",
  usage:
    "generate --count N [--seed S] [--invalid NAME|all [--with-meta]] [--out FILE] [--run-id ID] [--channels N]",
  description: [
    "Writes one JSON body per line (NDJSON) to stdout, or to FILE with --out. The same seed and options",
    "give byte-identical output. Valid events carry every documented field; e-mail addresses are only on",
    "example.com, example.net and example.org; references are eah-<run id>-<n>, unique within a run.",
    "",
    "--invalid NAME applies one catalogued variant to each of N valid events (N lines).",
    `--invalid all emits N rounds of all ${INVALID_VARIANTS.length} variants, each applied to its own valid event`,
    `(N × ${INVALID_VARIANTS.length} lines; no reference repeats). --with-meta wraps each line as`,
    '{"variant","violates","rule","path","body"}: "violates" is the loosest strictness (lenient, production,',
    'complete) that must reject the body, "path" where the error is expected. See --list-invalid.',
    "",
    "Output stops quietly (exit 0) when the reader goes away, e.g. `| head -1`. With --out the file appears",
    "only when complete. Interrupted by a signal: exit 3.",
  ].join("\n"),
  options: generateOptions,
  examples: [
    "event-harness generate --count 3 --seed 42",
    'event-harness generate --count 100000 --seed 7 --run-id "run-$(date +%s)" --out reports/events.ndjson',
    "event-harness generate --count 10 --seed 1 --invalid date-with-offset",
    "event-harness generate --count 1 --seed 1 --invalid all --with-meta | jq -c '{variant, violates}'",
    "event-harness generate --list-invalid",
  ],
  // The machinery loads only when the command runs.
  run: delegateTo(async () => (await import("../generate/index.ts")).writeEvents),
});
