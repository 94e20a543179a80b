import { CLIENT_MODELS, RUN_BOUNDS } from "../../load/index.ts";
import type { OptionSpecs, ParsedOptions } from "../command.ts";
import { capacityOptions } from "./capacity-options.ts";
import { acceptedOption, baselineOptions, compareOptionDefinitions } from "./gate-options.ts";
import { credentialsOption, EMBEDDED_EXPIRES_IN, targetOptions } from "./target-options.ts";

/**
 * The load options `run` takes too and hands to each load part as given: declared once here, read once by the load
 * settings' reader (cli/load/load-settings.ts), which `run` calls to check them before any part runs.
 */
export const loadPartOptions = {
  rate: {
    type: "string",
    valueName: "N",
    range: RUN_BOUNDS.rate,
    description:
      "Events per second (sustained, soak; ramp: the peak; spike: the base rate; capacity: the first step's).",
  },
} as const satisfies OptionSpecs;

/** `--threshold`: the load runs' objectives, which a capacity search holds each step to; `run` hands it to every load part. */
export const thresholdOption = {
  threshold: {
    type: "string",
    multiple: true,
    valueName: "NAME=EXPR",
    description:
      "Replace a metric's thresholds (capacity: its objectives), e.g. 'http_req_duration{endpoint:events}=p(95)<300'.",
  },
} as const satisfies OptionSpecs;

/** The load command's options: definitions only, so its help loads none of the machinery. */
export const loadOptions = {
  ...loadPartOptions,
  duration: {
    type: "string",
    valueName: "D",
    range: RUN_BOUNDS.durationSeconds,
    description:
      "Run length, k6-style (90s, 5m, 1h) or seconds; idle-gap: how many gap cycles fit; capacity: the search's time bound.",
  },
  vus: {
    type: "string",
    valueName: "N",
    range: RUN_BOUNDS.vus,
    description: "VUs (open models: pre-allocated VUs).",
  },
  instances: {
    type: "string",
    valueName: "N",
    range: RUN_BOUNDS.instances,
    description:
      "Split the run over N local k6 processes (execution segments), started together; results are merged (default 1).",
  },
  "k6-operator": {
    type: "string",
    valueName: "DIR",
    description:
      "Write a k6 archive, ConfigMap and TestRun (parallelism = --instances) for grafana/k6-operator into DIR (new or empty) instead of running, without contacting the target; merge with load-merge.",
  },
  "expires-in": {
    type: "string",
    valueName: "S",
    range: { min: 1, max: 86_400 },
    description:
      "With --k6-operator: the target's expires_in, which a run learns from the target (idle-gap plans its gaps from it).",
  },
  "client-model": {
    type: "string",
    valueName: "M",
    description: `Token behaviour of the client: ${CLIENT_MODELS.join(", ")} (default per scenario).`,
  },
  "expires-margin": {
    type: "string",
    valueName: "S",
    range: RUN_BOUNDS.marginSeconds,
    description:
      "Seconds before expiry a client refreshes, and the 401 classifier's tolerance (default 10% of expires_in, ≤ 30; idle-gap: ≤ expires_in/6).",
  },
  ...capacityOptions,
  ...credentialsOption,
  "report-dir": {
    type: "string",
    valueName: "DIR",
    description: "Where the reports go: a new or empty directory (default reports/load/<scenario>-<time>).",
  },
  ...thresholdOption,
  quiet: {
    type: "boolean",
    description:
      "No live progress on stderr (by default elapsed time, events accepted and failed, rate, p95, token refreshes and expiry violations: on a terminal one line rewritten every 2 s, in a log one line every 30 s).",
  },
  out: {
    type: "string",
    multiple: true,
    valueName: "SPEC",
    description: "Also stream metrics to a k6 output (k6 --out), e.g. json=metrics.json.gz for a soak.",
  },
  seed: {
    type: "string",
    valueName: "N",
    description: "Seed of the generated event bodies (default random).",
  },
  events: {
    type: "string",
    valueName: "KIND",
    description:
      "Event bodies: plain (default: the faker generator's) or wide (valid events from the whole space the spec allows, the property-based contract checks' generator: + and non-ASCII addresses, long references with quotes and emoji, emoji in free text).",
  },
  "sandbox-expires-in": {
    type: "string",
    valueName: "S",
    range: { min: 1, max: 86_400 },
    description: `expires_in of the embedded sandbox (default ${EMBEDDED_EXPIRES_IN}, so idle-gap takes seconds).`,
  },
  "sandbox-throughput": {
    type: "string",
    valueName: "N",
    description:
      "The embedded sandbox serves at most N events a second and queues the rest (a target whose capacity is known, for capacity).",
  },
  "sandbox-latency": {
    type: "string",
    valueName: "MS",
    description:
      "Milliseconds the embedded sandbox adds before every answer, to see a baseline comparison regress.",
  },
  ...baselineOptions,
  ...compareOptionDefinitions,
  "sandbox-fault": {
    type: "string",
    multiple: true,
    valueName: "NAME",
    description:
      "Start the embedded sandbox with this fault, to see thresholds fail (e.g. expiry-fixed); the faults are listed by `event-harness sandbox --help`.",
  },
  ...acceptedOption,
  ...targetOptions,
} as const satisfies OptionSpecs;

/** The load command's option values, as `event-harness load` parses them. */
export type LoadOptionValues = ParsedOptions<typeof loadOptions>;

/** The values of the options `run` hands to its load parts. */
export type LoadPartOptionValues = ParsedOptions<typeof loadPartOptions>;
