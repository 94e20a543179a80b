import type { Command, CommandEntry } from "../command.ts";

// A command module is imported only when its command runs (or shows its help), so `--help` starts at once.
/** Every subcommand of the CLI, in the order `--help` lists them; each name and summary match its module's. */
export const commands: readonly CommandEntry[] = [
  {
    name: "run",
    summary: "The main job: contract suite, load and rotation checks; one verdict and an HTML report",
    load: async () => (await import("./run.ts")).runCommand as Command,
  },
  {
    name: "contract",
    summary: "Check that a target keeps the API contract (token issuance, bearer, events, sliding expiry)",
    load: async () => (await import("./contract.ts")).contractCommand as Command,
  },
  {
    name: "load",
    summary: "Run a k6 load scenario and judge throughput, latency and sliding expiry under load",
    load: async () => (await import("./load.ts")).loadCommand as Command,
  },
  {
    name: "load-merge",
    summary: "Merge the outputs of k6-operator runners into one load verdict and report",
    load: async () => (await import("./load-merge.ts")).loadMergeCommand as Command,
  },
  {
    name: "compare",
    summary: "Compare a run with a baseline: load figures by statistics, contract checks one by one",
    load: async () => (await import("./compare.ts")).compareCommand as Command,
  },
  {
    name: "verify-rotation",
    summary: "Check a target right after its client secret was rotated",
    load: async () => (await import("./verify-rotation.ts")).verifyRotationCommand as Command,
  },
  {
    name: "token",
    summary:
      "Print one fresh access token of the configured target on stdout (for scripts and rotation checks)",
    load: async () => (await import("./token.ts")).tokenCommand as Command,
  },
  {
    name: "sandbox",
    summary: "Run the local sandbox API (token endpoint + events), optionally with faults",
    load: async () => (await import("./sandbox.ts")).sandboxCommand as Command,
  },
  {
    name: "sandbox-rotate",
    summary: "Rotate a client secret of a running sandbox through its admin endpoint",
    load: async () => (await import("./sandbox-rotate.ts")).sandboxRotateCommand as Command,
  },
  {
    name: "generate",
    summary: "Write seeded checkout events (valid or invalid) as NDJSON",
    load: async () => (await import("./generate.ts")).generateCommand as Command,
  },
  {
    name: "openapi",
    summary: "Write the API's contract as an OpenAPI 3.1 document (JSON)",
    load: async () => (await import("./openapi.ts")).openapiCommand as Command,
  },
  {
    name: "k6",
    summary: "Show which k6 the load command uses, or build the pinned k6 v2",
    load: async () => (await import("./k6.ts")).k6Command as Command,
  },
];
