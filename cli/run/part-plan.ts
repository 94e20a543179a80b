import path from "node:path";
import type { Target } from "../../contracts/index.ts";
import type { ScenarioName } from "../../load/index.ts";
import { displayPath } from "../display-path.ts";
import { loadPartOptionsFor } from "../load/load-settings.ts";
import type { ConfigSource } from "../options/config-options.ts";
import type { ContractOptionValues } from "../options/contract-options.ts";
import type { LoadOptionValues } from "../options/load-options.ts";
import { argvOf } from "../options/option-argv.ts";
import type { RotationOptionValues } from "../options/rotation-options.ts";
import { rerunCommand } from "../rerun-command.ts";
import type { RunSettings } from "./run-settings.ts";

/** What the embedded rotation check does and therefore expects: a routine rotation without overlap or revocation. */
const EMBEDDED_ROTATION = { expectOld: "refused", expectOldTokens: "valid" } as const;
/** Where the run asks k6 (through the load command's --out) for its raw samples; removed once aggregated. */
export const K6_CSV_FILE = "metrics.csv.gz";

interface PartHeading {
  readonly id: string;
  readonly title: string;
}

/**
 * One part as the run will execute it: the pipeline its command delegates to and the option values that command
 * would parse from the command line shown to reproduce it.
 */
export type PartPlan =
  | (PartHeading & {
      readonly kind: "contract";
      readonly command: "contract";
      readonly options: ContractOptionValues;
    })
  | (PartHeading & {
      readonly kind: "load";
      readonly command: "load";
      readonly scenario: ScenarioName;
      readonly options: LoadOptionValues;
      /** Options the run adds for itself (the k6 metrics file), left out of the command shown to reproduce. */
      readonly internal: LoadOptionValues;
    })
  | (PartHeading & {
      readonly kind: "rotation";
      readonly command: "verify-rotation";
      readonly options: RotationOptionValues;
    });

/** The parts in their fixed order (rotation, contract, load scenarios), each with the options its command would get. */
export function planParts(settings: RunSettings): PartPlan[] {
  const { runDir, faults, external } = settings;
  const dirOf = (id: string) => displayPath(path.join(runDir, id));
  const faultOptions = faults.length > 0 ? { "sandbox-fault": faults } : {};
  const quiet = settings.quiet ? { quiet: true } : {};
  // Every part is judged with the ledger, and says so in the command that repeats it.
  const ledger = settings.accepted === undefined ? {} : { accepted: displayPath(settings.accepted) };
  const plans: PartPlan[] = [];
  // Rotation first: a token the user took before rotating would otherwise outlive expires_in during the other parts.
  if (settings.parts.includes("rotation")) {
    const expectations =
      external === undefined
        ? {
            "expect-old": EMBEDDED_ROTATION.expectOld,
            "expect-old-tokens": EMBEDDED_ROTATION.expectOldTokens,
          }
        : {
            ...(settings.expectOld ? { "expect-old": settings.expectOld } : {}),
            ...(settings.expectOldTokens ? { "expect-old-tokens": settings.expectOldTokens } : {}),
          };
    plans.push({
      id: "rotation",
      kind: "rotation",
      title: "Credential rotation",
      command: "verify-rotation",
      options: { ...expectations, "report-dir": dirOf("rotation"), ...ledger },
    });
  }
  if (settings.parts.includes("contract")) {
    plans.push({
      id: "contract",
      kind: "contract",
      title: `Contract suite (${settings.profile} profile)`,
      command: "contract",
      options: {
        profile: settings.profile,
        "report-dir": dirOf("contract"),
        ...faultOptions,
        ...ledger,
        ...quiet,
      },
    });
  }
  if (settings.parts.includes("load")) {
    for (const scenario of settings.scenarios) {
      const id = `load-${scenario.name}`;
      plans.push({
        id,
        kind: "load",
        title: `Load: ${scenario.name}${scenario.duration ? ` (${scenario.duration})` : ""}`,
        command: "load",
        scenario: scenario.name,
        options: {
          ...(scenario.duration ? { duration: scenario.duration } : {}),
          ...loadPartOptionsFor(scenario.name, settings.loadPart),
          ...(settings.thresholds === undefined || settings.thresholds.length === 0
            ? {}
            : { threshold: settings.thresholds }),
          "report-dir": dirOf(id),
          ...faultOptions,
          ...(settings.sandboxLatency === undefined ? {} : { "sandbox-latency": settings.sandboxLatency }),
          ...baselineOf(settings, scenario.name),
          ...ledger,
          ...quiet,
        },
        // k6's raw samples, turned into the per-second series the report draws; a capacity search charts its steps.
        internal:
          scenario.name === "capacity"
            ? {}
            : { out: [`csv=fileName=${path.join(runDir, id, K6_CSV_FILE)},timeFormat=unix_milli`] },
      });
    }
  }
  return plans;
}

/** A load part's baseline and --fail-on, when the run has one for its scenario. */
function baselineOf(settings: RunSettings, scenario: ScenarioName): LoadOptionValues {
  const file = settings.baselines[scenario];
  if (file === undefined) return {};
  return {
    baseline: displayPath(file),
    ...(settings.failOn === undefined ? {} : { "fail-on": settings.failOn }),
    ...(settings.allowLatencyChange === true ? { "allow-latency-change": true } : {}),
  };
}

/**
 * The command line that repeats a part by hand where the run ran, as printed: its command's options but the run's
 * report directory (the rerun writes a fresh one), the config file, the target's flags; secrets read from the same
 * environment (a placeholder such as `EVENT_API_CLIENT_SECRET=…` would replace the real one and test a wrong secret).
 */
export function reproduceCommand(
  plan: PartPlan,
  external: Target | undefined,
  config?: ConfigSource,
): string {
  const { "report-dir": _runDir, ...options } = plan.options;
  const words = [plan.command, ...(plan.kind === "load" ? [plan.scenario] : []), ...argvOf(options)];
  return rerunCommand(words, external, config);
}
