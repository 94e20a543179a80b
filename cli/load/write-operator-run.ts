import { rm } from "node:fs/promises";
import path from "node:path";
import { writeK6Operator } from "../../k6-tooling/index.ts";
import type { CommandIo } from "../command.ts";
import { displayPath } from "../display-path.ts";
import { ExitCode } from "../exit-codes.ts";
import { describeRun } from "./describe-run.ts";
import type { PreparedLoad } from "./prepare-load.ts";

/** `load --k6-operator DIR`: the prepared run written as a k6 archive and manifests for the cluster, not run here. */
export async function writeOperatorRun(prepared: PreparedLoad, io: CommandIo): Promise<number> {
  const { reportDir, config, plan } = prepared;
  const written = await writeK6Operator({
    dir: reportDir,
    k6: prepared.k6,
    bundle: prepared.script,
    dataFile: prepared.dataFile,
    config,
    plan,
    context: prepared.context,
    parentEnv: io.env,
    signal: io.signal,
  }).finally(() => rm(prepared.bundleDir, { recursive: true, force: true }));
  io.stderr.write(
    `event-harness: ${describeRun(config, plan)}, for k6-operator with ${config.instances} runner(s)\n`,
  );
  if (!written.inConfigMap) {
    io.stderr.write(
      `event-harness: the archive is ${(written.archiveBytes / 1048576).toFixed(2)} MiB, over a ConfigMap's 1 MiB limit: the TestRun reads it from the results claim instead (see README.md there)\n`,
    );
  }
  io.stdout.write(
    `Wrote ${written.files.map((f) => path.join(displayPath(reportDir), f)).join(", ")}\nNext: ${displayPath(path.join(reportDir, "README.md"))}\n`,
  );
  return ExitCode.ok;
}
