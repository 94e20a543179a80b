import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { RunConfig, ScenarioPlan } from "../../load/index.ts";
import { SCENARIOS } from "../../load/index.ts";
import type { Ledger } from "../../reporting/accepted/index.ts";
import { applyToComparison } from "../../reporting/accepted/index.ts";
import type {
  CompareOptions,
  FailOn,
  LoadRecord,
  LoadRecordSettings,
} from "../../reporting/compare/index.ts";
import {
  compareLoad,
  comparisonJunitSuite,
  comparisonLine,
  comparisonStatus,
  failsRun,
  LOAD_RECORD_FORMAT,
  readLoadUnits,
  renderComparisonMarkdown,
  renderComparisonText,
  settingsDifferences,
  targetMismatches,
  unitMsFor,
  warmUpUnitsFor,
} from "../../reporting/compare/index.ts";
import type { CapacityFigure, LoadResult, ReportAddition } from "../../reporting/load/index.ts";
import { BASELINE_COMPARISON_FILE } from "../../reporting/run/index.ts";
import { baselineFor, readBaselineSet } from "../compare/baseline-set.ts";
import { checkComparable, LOAD_RECORD_FILE } from "../compare/read-comparable.ts";
import { displayPath } from "../display-path.ts";

export interface BaselineStepInput {
  readonly config: RunConfig;
  readonly plan: ScenarioPlan;
  readonly reportDir: string;
  readonly versions: LoadRecord["versions"];
  readonly runId: string;
  readonly startedAt: Date;
  readonly target: LoadRecord["target"];
  /** The baselines named (--baseline or EVENT_HARNESS_BASELINE): this scenario's is compared. */
  readonly baselines: readonly string[];
  readonly saveBaseline: string | undefined;
  readonly compareOptions: CompareOptions;
  readonly failOn: FailOn;
  /** --allow-latency-change: another sandbox latency is a slowdown simulated on purpose, compared and named. */
  readonly allowLatencyChange: boolean;
  readonly ledger: Ledger | undefined;
  /** A capacity run's objectives (`metric expression`, sorted): a baseline held to others is another experiment. */
  readonly capacityObjectives?: readonly string[];
}

function recordSettings(config: RunConfig): LoadRecordSettings {
  // A capacity is compared whatever rate its search started from and however long it was allowed to take.
  const capacity = config.scenario === "capacity";
  return {
    scenario: config.scenario,
    rate: SCENARIOS[config.scenario].usesRate && !capacity ? config.rate : null,
    vus: config.vus,
    durationSeconds: capacity ? null : (config.durationSeconds ?? null),
    clientModel: config.clientModel,
    expiresInSeconds: config.expiresInSeconds ?? null,
  };
}

/**
 * The load run's baseline work: before k6 starts, the baseline is read and a run with other settings refused (exit
 * 2); after it, k6's samples become `baseline.json`, the comparison is judged and saved where asked.
 */
interface NamedBaseline {
  readonly name: string;
  readonly record: LoadRecord;
}

export class BaselineStep {
  readonly #input: BaselineStepInput;
  readonly #baseline: NamedBaseline | undefined;
  #record: LoadRecord | undefined;

  private constructor(input: BaselineStepInput, baseline: NamedBaseline | undefined) {
    this.#input = input;
    this.#baseline = baseline;
  }

  /** Reads and checks --baseline before any load is sent. */
  static async prepare(input: BaselineStepInput): Promise<BaselineStep> {
    const comparable = baselineFor(
      await readBaselineSet(input.baselines, "load"),
      input.config.scenario,
      "load",
    );
    if (comparable === undefined) return new BaselineStep(input, undefined);
    const settings = recordSettings(input.config);
    const unitMs = unitMsFor(input.plan.expectedSeconds);
    const objectives = input.capacityObjectives;
    checkComparable(
      settingsDifferences(comparable.record, {
        ...comparable.record,
        settings,
        unitMs,
        ...(objectives === undefined
          ? {}
          : {
              capacity: {
                kind: "none",
                held: null,
                broken: null,
                limitedAt: null,
                ...comparable.record.capacity,
                objectives,
              },
            }),
      }),
      targetMismatches(comparable.record.target, input.target, input.allowLatencyChange),
      "load",
    );
    return new BaselineStep(input, { name: comparable.name, record: comparable.record });
  }

  /**
   * After a finished run: writes baseline.json from the samples (removing the harness's own samples file) and, with
   * --baseline, returns what the comparison adds to the reports and its console text.
   */
  async afterRun(
    samplesFiles: readonly string[],
    ownFile: string | undefined,
  ): Promise<{ readonly addition: ReportAddition; readonly text: string } | undefined> {
    const { config, plan } = this.#input;
    const unitMs = unitMsFor(plan.expectedSeconds);
    const { units, firstEventUnit } = await readLoadUnits(samplesFiles, unitMs);
    if (ownFile !== undefined) await rm(ownFile, { force: true });
    const record: LoadRecord = {
      ...this.#recordBase(config, plan),
      warmUpUnits: firstEventUnit + warmUpUnitsFor(plan.expectedSeconds, unitMs),
      units,
    };
    return this.#finish(record);
  }

  /** Keeps the record as baseline.json and, with --baseline, compares it and writes what the HTML report draws. */
  async #finish(
    record: LoadRecord,
  ): Promise<{ readonly addition: ReportAddition; readonly text: string } | undefined> {
    const { config, reportDir } = this.#input;
    this.#record = record;
    await writeFile(path.join(reportDir, LOAD_RECORD_FILE), `${JSON.stringify(record)}\n`);
    if (this.#baseline === undefined) return undefined;
    const { comparison, outcomes } = applyToComparison(
      compareLoad(this.#baseline.record, record, this.#input.compareOptions),
      this.#input.ledger,
    );
    const status = comparisonStatus(comparison);
    // The HTML report of `run` draws the baseline behind the latency chart from this file.
    await writeFile(
      path.join(reportDir, BASELINE_COMPARISON_FILE),
      `${JSON.stringify({
        baseline: this.#baseline.name,
        status,
        line: comparisonLine(comparison),
        figures: comparison.figures.map((f) => ({
          id: f.id,
          status: f.status,
          baseline: f.baseline ?? null,
          candidate: f.candidate ?? null,
        })),
      })}\n`,
    );
    const regressed = [...comparison.figures, ...comparison.windows]
      .filter((f) => f.status === "REGRESSED")
      .map((f) => (f.window ? `${f.id} window ${f.window.fromSeconds}–${f.window.toSeconds} s` : f.id));
    return {
      addition: {
        baseline: {
          regressed,
          fails: failsRun(status, this.#input.failOn),
          accepted: outcomes,
          line: comparisonLine(comparison),
        },
        junitSuites: [comparisonJunitSuite(comparison, `load.${config.scenario}`)],
        markdown: renderComparisonMarkdown(comparison, this.#baseline.name),
      },
      text: renderComparisonText(comparison, this.#baseline.name),
    };
  }

  /**
   * After a capacity search: writes baseline.json with the capacity it found (no units: each step ran at another
   * rate) and, with --baseline, compares the capacity with the baseline's.
   */
  async afterCapacity(
    figure: CapacityFigure,
  ): Promise<{ readonly addition: ReportAddition; readonly text: string } | undefined> {
    const { config, plan } = this.#input;
    const record: LoadRecord = {
      ...this.#recordBase(config, plan),
      warmUpUnits: 0,
      units: [],
      capacity: {
        kind: figure.kind,
        held: figure.held ?? null,
        broken: figure.broken?.rate ?? null,
        limitedAt: figure.limited?.rate ?? null,
        objectives: this.#input.capacityObjectives ?? [],
      },
    };
    return this.#finish(record);
  }

  /** What every record of this run holds, whatever its figures. */
  #recordBase(config: RunConfig, plan: ScenarioPlan): Omit<LoadRecord, "warmUpUnits" | "units"> {
    return {
      format: LOAD_RECORD_FORMAT,
      kind: "load",
      settings: recordSettings(config),
      versions: this.#input.versions,
      runId: this.#input.runId,
      startedAt: this.#input.startedAt.toISOString(),
      target: this.#input.target,
      instances: config.instances,
      unitMs: unitMsFor(plan.expectedSeconds),
    };
  }

  /** --save-baseline: copies the record of a passed run; a run that did not pass is no baseline. */
  async save(result: LoadResult, say: (text: string) => void): Promise<void> {
    const file = this.#input.saveBaseline;
    if (file === undefined) return;
    if (this.#record === undefined || result.outcome !== "passed") {
      say(
        `event-harness: baseline not saved to ${displayPath(file)}: only a run that passed is a baseline\n`,
      );
      return;
    }
    // A baseline is kept beside the workflow that reads it (baselines/…): its folder is made when missing.
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `${JSON.stringify(this.#record)}\n`);
    say(`event-harness: baseline saved to ${displayPath(file)}\n`);
  }
}
