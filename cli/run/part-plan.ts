import path from "node:path";
import type { Target } from "../../contracts/index.ts";
import { SCENARIOS } from "../../load/index.ts";
import type { PartKind } from "../../reporting/run/index.ts";
import { displayPath } from "../display-path.ts";
import type { RunSettings } from "./run-settings.ts";

/** What the embedded rotation check does and therefore expects: a routine rotation without overlap or revocation. */
const EMBEDDED_ROTATION = { expectOld: "refused", expectOldTokens: "valid" } as const;
/** Where the run asks k6 (through the load command's --out) for its raw samples; removed once aggregated. */
export const K6_CSV_FILE = "metrics.csv.gz";

/** One part as the run will execute it: a command and the argv it would get on the command line. */
export interface PartPlan {
  readonly id: string;
  readonly kind: PartKind;
  readonly title: string;
  readonly command: "contract" | "load" | "verify-rotation";
  readonly argv: readonly string[];
  /** Extra argv the run adds for itself (the k6 metrics file), left out of the command shown to reproduce. */
  readonly internalArgv?: readonly string[];
}

/** The parts in their fixed order (contract, load scenarios, rotation), each as the command line it amounts to. */
export function planParts(settings: RunSettings): PartPlan[] {
  const { runDir, faults, external } = settings;
  const dirOf = (id: string) => displayPath(path.join(runDir, id));
  const faultArgs = faults.flatMap((fault) => ["--sandbox-fault", fault]);
  const plans: PartPlan[] = [];
  if (settings.parts.includes("contract")) {
    plans.push({
      id: "contract",
      kind: "contract",
      title: `Contract suite (${settings.profile} profile)`,
      command: "contract",
      argv: ["--profile", settings.profile, "--report-dir", dirOf("contract"), ...faultArgs],
    });
  }
  if (settings.parts.includes("load")) {
    for (const scenario of settings.scenarios) {
      const id = `load-${scenario.name}`;
      const rate =
        settings.rate !== undefined && SCENARIOS[scenario.name].usesRate ? settings.rate : undefined;
      plans.push({
        id,
        kind: "load",
        title: `Load: ${scenario.name}${scenario.duration ? ` (${scenario.duration})` : ""}`,
        command: "load",
        argv: [
          scenario.name,
          ...(scenario.duration ? ["--duration", scenario.duration] : []),
          ...(rate === undefined ? [] : ["--rate", rate]),
          "--report-dir",
          dirOf(id),
          ...faultArgs,
          ...(settings.sandboxLatency === undefined ? [] : ["--sandbox-latency", settings.sandboxLatency]),
          ...(settings.baseline === undefined ? [] : ["--baseline", settings.baseline]),
        ],
        // k6's raw samples, turned into the per-second series the report draws.
        internalArgv: ["--out", `csv=fileName=${path.join(runDir, id, K6_CSV_FILE)},timeFormat=unix_milli`],
      });
    }
  }
  if (settings.parts.includes("rotation")) {
    const expectations =
      external === undefined
        ? [
            "--expect-old",
            EMBEDDED_ROTATION.expectOld,
            "--expect-old-tokens",
            EMBEDDED_ROTATION.expectOldTokens,
          ]
        : [
            ...(settings.expectOld ? ["--expect-old", settings.expectOld] : []),
            ...(settings.expectOldTokens ? ["--expect-old-tokens", settings.expectOldTokens] : []),
          ];
    plans.push({
      id: "rotation",
      kind: "rotation",
      title: "Credential rotation",
      command: "verify-rotation",
      argv: [...expectations, "--report-dir", dirOf("rotation")],
    });
  }
  return plans;
}

function shellWord(word: string): string {
  return /^[\w./=:,@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The command line that repeats a part by hand where the run ran: target flags shown, secrets read from the same
 * environment (a placeholder such as `EVENT_API_CLIENT_SECRET=…` would replace the real one and test a wrong secret).
 */
export function reproduceCommand(plan: PartPlan, external: Target | undefined): string {
  const command = `npx event-harness ${[plan.command, ...plan.argv].map(shellWord).join(" ")}`;
  if (external === undefined) return command;
  const flags = [
    "--token-url",
    external.tokenUrl,
    "--base-url",
    external.baseUrl,
    "--client-id",
    external.clientId,
    ...(external.clientAuth === "post" ? [] : ["--client-auth", external.clientAuth]),
    ...(external.scope === undefined ? [] : ["--scope", external.scope]),
    ...(external.connection.insecure ? ["--insecure"] : []),
  ];
  return `${command} ${flags.map(shellWord).join(" ")}`;
}
