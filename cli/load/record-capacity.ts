import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { CapacityReport } from "../../reporting/load/index.ts";
import {
  capacityFigure,
  capacityLoadResult,
  describeResult,
  renderCapacityJson,
  renderCapacityJunit,
  renderCapacityMarkdown,
  renderCapacityText,
  scrubReports,
} from "../../reporting/load/index.ts";
import { digestCapacity, renderCapacityPage } from "../../reporting/run/index.ts";
import type { CommandIo } from "../command.ts";
import { displayPath } from "../display-path.ts";
import { loadExitCode } from "../exit-codes.ts";
import type { CapacitySettings } from "./capacity-settings.ts";
import type { CapacityExecution } from "./execute-capacity.ts";
import { existingFiles } from "./existing-files.ts";
import type { PreparedLoad } from "./prepare-load.ts";
import { writeRunJson } from "./record-load.ts";

/** The reports a capacity run names on its last line, when it wrote them. */
const LISTED_REPORTS = [
  "summary.md",
  "summary.json",
  "junit.xml",
  "capacity.html",
  "run.json",
  "baseline.json",
];

/**
 * Records a capacity run: the figure and the verdict from its steps, the reports (summary.md, summary.json,
 * junit.xml, capacity.html), the baseline comparison and record, run.json, and the exit code.
 */
export async function recordCapacity(
  prepared: PreparedLoad,
  execution: CapacityExecution,
  io: CommandIo,
): Promise<number> {
  const settings = prepared.settings.capacity as CapacitySettings;
  const { reportDir } = prepared;
  const figure = capacityFigure(execution.steps, execution.stop, settings.resolution);
  const finished = execution.stop !== "aborted" && execution.stop !== "no-verdict";
  const compared = finished ? await prepared.baselineStep.afterCapacity(figure) : undefined;
  const result = capacityLoadResult(
    figure,
    execution.steps,
    execution.contractThresholds,
    prepared.ledger,
    compared?.addition.baseline,
  );
  const report: CapacityReport = {
    context: prepared.context,
    search: execution.search,
    objectives: execution.objectives,
    steps: execution.steps,
    figure,
    result,
    runSeconds: execution.runSeconds,
  };
  const summaryJson = renderCapacityJson(report, result.baseline?.line ?? null);
  const digest = digestCapacity(JSON.parse(summaryJson));
  await Promise.all([
    writeFile(
      path.join(reportDir, "summary.md"),
      renderCapacityMarkdown(report, compared?.addition.markdown),
    ),
    writeFile(path.join(reportDir, "summary.json"), summaryJson),
    writeFile(path.join(reportDir, "junit.xml"), renderCapacityJunit(report, compared?.addition.junitSuites)),
    ...(digest === undefined
      ? []
      : [
          writeFile(
            path.join(reportDir, "capacity.html"),
            renderCapacityPage(digest, prepared.context.targetLabel),
          ),
        ]),
  ]);
  io.stdout.write(renderCapacityText(report));
  if (compared !== undefined) io.stdout.write(`${compared.text}\n`);
  await prepared.baselineStep.save(result, (text) => io.stderr.write(text));
  const leaked = await scrubReports(reportDir, prepared.reportNet);
  if (leaked.length > 0)
    io.stderr.write(`event-harness: warning: redacted secrets found in ${leaked.join(", ")}\n`);
  await writeRunJson(
    prepared,
    {
      facts: {
        capacity: {
          held: figure.held ?? null,
          broken: figure.broken?.rate ?? null,
          limitedAt: figure.limited?.rate ?? null,
          stop: figure.stop,
          steps: execution.steps.length,
        },
      },
    },
    result,
  );
  const written = await existingFiles(reportDir, LISTED_REPORTS);
  io.stdout.write(
    `Reports: ${displayPath(reportDir)}/${written.join(", ")} (each step's own k6 output in steps/)\n`,
  );
  if (result.outcome !== "passed") io.stderr.write(`event-harness: ${describeResult(result)}\n`);
  if (result.regressed.length > 0) {
    io.stderr.write(`event-harness: REGRESSED against the baseline: ${result.regressed.join("; ")}\n`);
  }
  return loadExitCode(result);
}
