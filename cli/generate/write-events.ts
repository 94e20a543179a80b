import { randomInt } from "node:crypto";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { finished } from "node:stream/promises";
import { countNoun, UsageError } from "../../core/index.ts";
import type { EventGenerator, InvalidVariant, WriteOutcome } from "../../generators/index.ts";
import {
  createEventGenerator,
  findInvalidVariant,
  GENERATOR_DEFAULTS,
  INVALID_VARIANT_NAMES,
  INVALID_VARIANTS,
  ndjsonChunks,
  RUN_ID_PATTERN,
  writeChunks,
} from "../../generators/index.ts";
import type { CommandIo } from "../command.ts";
import { ExitCode } from "../exit-codes.ts";
import { describeFileError } from "../file-error.ts";
import { makeDirectory } from "../make-directory.ts";
import type { GenerateOptionValues } from "../options/generate-options.ts";
import { generateOptions } from "../options/generate-options.ts";
import { parseInteger } from "../options/parse-option-value.ts";

const NAME = "generate";

/** Path problems that mean "wrong --out", not a broken harness. */
const BAD_PATH = new Set([
  "EACCES",
  "EPERM",
  "EISDIR",
  "ENOTDIR",
  "ENOENT",
  "EROFS",
  "EEXIST",
  "ENAMETOOLONG",
  "ELOOP",
]);

/**
 * `event-harness generate`: seeded events, valid or made invalid by a catalogued variant, as NDJSON on stdout or
 * into a file that appears only when complete; or the list of invalid variants.
 */
export async function writeEvents(options: GenerateOptionValues, io: CommandIo): Promise<number> {
  if (options["list-invalid"]) {
    io.stdout.write(renderVariantList(INVALID_VARIANTS));
    return ExitCode.ok;
  }
  const { min, max } = generateOptions.count.range;
  const count = requiredInteger("count", options.count, min, max);
  const seed = parseInteger("seed", options.seed, {
    ...generateOptions.seed.range,
    fallback: randomInt(generateOptions.seed.range.max),
  });
  // A random seed is said on stderr (stdout is the data), so the same events can be made again.
  if (options.seed === undefined)
    io.stderr.write(`event-harness ${NAME}: seed ${seed} (pass --seed ${seed} to repeat)\n`);
  const channels = parseInteger("channels", options.channels, {
    ...generateOptions.channels.range,
    fallback: GENERATOR_DEFAULTS.channels,
  });
  const runId = options["run-id"];
  if (runId !== undefined && !RUN_ID_PATTERN.test(runId)) {
    throw new UsageError(
      "invalid-value",
      `--run-id takes 1 to 64 letters, digits, '.', '_' or '-' (starting with a letter or digit), got '${runId}'`,
      NAME,
    );
  }
  const variants = selectVariants(options.invalid);
  const withMeta = options["with-meta"] === true;
  if (withMeta && variants === undefined) {
    throw new UsageError("invalid-value", "--with-meta only applies with --invalid", NAME);
  }

  const generator = createEventGenerator({ seed, runId, channels });
  const output = { lines: 0 };
  const chunks = ndjsonChunks(countLines(bodyLines(generator, count, variants, withMeta), output));
  const out = options.out === undefined || options.out === "-" ? undefined : resolve(options.out);
  const outcome =
    out === undefined ? await writeChunks(io.stdout, chunks, io.signal) : await writeFile(out, chunks, io);

  if (outcome.status === "aborted") {
    io.stderr.write(
      `event-harness ${NAME}: interrupted after generating ${output.lines} line(s)${out === undefined ? "" : `; ${options.out} not written`}\n`,
    );
    return ExitCode.undecided;
  }
  if (out !== undefined) {
    io.stderr.write(
      `event-harness ${NAME}: wrote ${countNoun(output.lines, "line")} to ${options.out} (seed ${seed}, run ${generator.runId})\n`,
    );
  }
  return ExitCode.ok;
}

function requiredInteger(name: string, raw: string | undefined, min: number, max: number): number {
  if (raw === undefined)
    throw new UsageError("missing-argument", `--${name} is required (${min} to ${max})`, NAME);
  return parseInteger(name, raw, { min, max, fallback: min });
}

function selectVariants(name: string | undefined): readonly InvalidVariant[] | undefined {
  if (name === undefined) return undefined;
  if (name === "all") return INVALID_VARIANTS;
  const variant = findInvalidVariant(name);
  if (variant === undefined) {
    throw new UsageError(
      "invalid-value",
      `unknown --invalid variant '${name}'; use 'all' or one of: ${INVALID_VARIANT_NAMES.join(", ")}`,
      NAME,
    );
  }
  return [variant];
}

/** Each line is built only when the writer asks for it, so memory stays flat whatever the count. */
function* bodyLines(
  generator: EventGenerator,
  count: number,
  variants: readonly InvalidVariant[] | undefined,
  withMeta: boolean,
): Generator<string, void, undefined> {
  if (variants === undefined) {
    for (let i = 0; i < count; i++) yield JSON.stringify(generator.next());
    return;
  }
  for (let i = 0; i < count; i++) {
    for (const variant of variants) {
      const body = variant.apply(generator.next());
      yield withMeta
        ? JSON.stringify({
            variant: variant.name,
            violates: variant.violates,
            rule: variant.rule,
            path: variant.path,
            body,
          })
        : JSON.stringify(body);
    }
  }
}

function* countLines(lines: Iterable<string>, output: { lines: number }): Generator<string, void, undefined> {
  for (const line of lines) {
    output.lines += 1;
    yield line;
  }
}

/** Writes beside the target and renames at the end, so a k6 run never loads a half-written data file. */
async function writeFile(path: string, chunks: Iterable<string>, io: CommandIo): Promise<WriteOutcome> {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const stream = await openForWriting(path, temporary);
  let renamed = false;
  try {
    const outcome = await writeChunks(stream, chunks, io.signal);
    if (outcome.status !== "done") return outcome;
    stream.end();
    await finished(stream);
    await rename(temporary, path);
    renamed = true;
    return outcome;
  } finally {
    if (!renamed) {
      stream.destroy();
      await rm(temporary, { force: true });
    }
  }
}

async function openForWriting(
  path: string,
  temporary: string,
): Promise<NodeJS.WritableStream & { destroy(): void }> {
  try {
    if ((await stat(path).catch(() => undefined))?.isDirectory()) {
      throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
    }
    await makeDirectory(dirname(path));
    const stream = createWriteStream(temporary, { flags: "wx" });
    await once(stream, "open");
    return stream;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (!BAD_PATH.has(code)) throw error;
    throw new UsageError("invalid-value", `--out cannot write ${path}: ${describeFileError(error)}`, NAME);
  }
}

function renderVariantList(variants: readonly InvalidVariant[]): string {
  const rows = variants.map((variant) => [
    variant.name,
    variant.violates,
    variant.path.length === 0 ? "(body)" : variant.path.join("."),
    variant.rule,
  ]);
  const header = ["NAME", "VIOLATES", "PATH", "RULE"];
  const widths = [0, 1, 2].map((column) =>
    Math.max(...[header, ...rows].map((row) => (row[column] ?? "").length)),
  );
  const format = (row: readonly string[]) =>
    row.map((cell, column) => (column < 3 ? cell.padEnd(widths[column] ?? 0) : cell)).join("  ");
  return `${[header, ...rows].map(format).join("\n")}\n`;
}
