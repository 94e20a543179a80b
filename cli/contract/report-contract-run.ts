import type { Redactor } from "../../contracts/index.ts";
import type { Ledger } from "../../reporting/accepted/index.ts";
import { applyToChecks } from "../../reporting/accepted/index.ts";
import type { ContractRun } from "../../reporting/contract/index.ts";
import { mapTokenEndpointFacts } from "../../transport/index.ts";
import type { CommandIo } from "../command.ts";
import { displayPath } from "../display-path.ts";
import { ExitCode } from "../exit-codes.ts";

/**
 * Judges the run with the ledger of accepted deviations, writes the reports, prints the console summary, and turns
 * the verdict into the exit code. The target settings the user gave are redacted as values (a secret in a query
 * string, a token parameter's value in the audience); the checks arrive redacted from the suite.
 */
export async function reportContractRun(
  measured: ContractRun,
  reportDir: string,
  redactor: Redactor,
  io: CommandIo,
  ledger?: Ledger,
): Promise<number> {
  const accepted = ledger === undefined ? undefined : applyToChecks(measured.checks, ledger);
  const run: ContractRun =
    ledger === undefined || accepted === undefined
      ? measured
      : { ...measured, checks: accepted.checks, acceptedFile: ledger.file, accepted: accepted.outcomes };
  const { renderConsoleSummary, verdictOf, writeContractReports } = await import(
    "../../reporting/contract/index.ts"
  );
  const { baseUrl, clientId, audience, scope, resource, proxy } = run.target;
  const target = {
    ...run.target,
    ...mapTokenEndpointFacts(run.target, (url) => redactor.redact(url)),
    baseUrl: redactor.redact(baseUrl),
    clientId: redactor.redact(clientId),
    ...(audience === undefined ? {} : { audience: redactor.redact(audience) }),
    ...(scope === undefined ? {} : { scope: redactor.redact(scope) }),
    ...(resource === undefined ? {} : { resource: redactor.redact(resource) }),
    ...(proxy === undefined ? {} : { proxy: redactor.redact(proxy) }),
  };
  const safe: ContractRun = {
    ...run,
    target,
    ...(run.rerun === undefined ? {} : { rerun: redactor.redact(run.rerun) }),
  };
  const files = await writeContractReports(safe, reportDir);
  io.stdout.write(renderConsoleSummary(safe, `Reports: ${files.map(displayPath).join(", ")}`));
  const verdict = verdictOf(run);
  return verdict === "failed" ? ExitCode.failed : verdict === "passed" ? ExitCode.ok : ExitCode.undecided;
}
