import path from "node:path";
import { UsageError } from "../../core/index.ts";
import {
  ensureK6,
  findK6,
  K6_HARNESS_EXTENSION,
  K6_SAMPLES_OUTPUT,
  pinnedK6Version,
} from "../../k6-tooling/index.ts";
import type { CommandIo } from "../command.ts";
import { ExitCode } from "../exit-codes.ts";
import type { K6OptionValues } from "../options/k6-options.ts";

const SOURCE_LABEL = {
  K6_BIN: "from K6_BIN",
  PATH: "from PATH",
  project: "project-local build",
} as const;

/** `event-harness k6`: which k6 the load command uses and what it lacks, building the pinned one with --install. */
export async function showK6(options: K6OptionValues, io: CommandIo): Promise<number> {
  const binary = options.install
    ? await ensureK6({ env: io.env, stderr: io.stderr, signal: io.signal })
    : (await findK6(io.env)).binary;
  if (binary === undefined) {
    throw new UsageError(
      "missing-tool",
      `no k6 v2 found (K6_BIN, PATH, .tools/bin/k6); run \`event-harness k6 --install\` to build k6 ${await pinnedK6Version()}`,
      "k6",
    );
  }
  if (options["print-path"]) {
    io.stdout.write(`${binary.path}\n`);
  } else {
    const shown = path.isAbsolute(binary.path) ? path.relative(process.cwd(), binary.path) : binary.path;
    io.stdout.write(
      `k6 ${binary.version} (${SOURCE_LABEL[binary.source]}): ${shown.startsWith("..") ? binary.path : shown}\n`,
    );
    // Only the harness's own build caps response bodies (tools/k6/README.md).
    if (!binary.harnessExtension) {
      io.stdout.write(
        `without ${K6_HARNESS_EXTENSION}: response bodies are not capped; memory per response is bounded only by --timeout (the harness's own build has it: .tools/bin/k6, used when neither K6_BIN nor PATH names a k6)\n`,
      );
    }
    // Only the harness's own build writes the baseline record's samples compactly (tools/k6/README.md).
    if (!binary.samplesOutput) {
      io.stdout.write(
        `without the output ${K6_SAMPLES_OUTPUT}: each load run's baseline record is built from k6's CSV output, which writes every sample of every metric and costs k6 more CPU per event (the harness's own build has it)\n`,
      );
    }
  }
  return ExitCode.ok;
}
