import { spawn } from "node:child_process";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, vi } from "vitest";
import { generateCommand } from "../../../cli/commands/generate.ts";
import { completeEventSchema, EVENT_STRICTNESS, eventSchemas } from "../../../domain/index.ts";
import { INVALID_VARIANT_NAMES, INVALID_VARIANTS, isRejectedAt } from "../../../generators/index.ts";
import { it } from "../../support/fixtures.ts";
import { runInProcess } from "../../support/run-in-process.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const CLI = join(ROOT, "bin", "event-harness.js");

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the real CLI in a child process, as a user or CI would. */
function spawnCli(
  args: readonly string[],
  onStdout?: (child: ReturnType<typeof spawn>) => void,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (data: string) => {
      stdout += data;
      onStdout?.(child);
    });
    child.stderr.setEncoding("utf8").on("data", (data: string) => {
      stderr += data;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the command in-process, with injectable streams and signal. */
function generateInProcess(args: readonly string[], signal = new AbortController().signal): Promise<Run> {
  return runInProcess(generateCommand, args, {}, signal);
}

function lines(output: string): string[] {
  expect(output.endsWith("\n")).toBe(true);
  return output.slice(0, -1).split("\n");
}

describe("event-harness generate (child process)", () => {
  it("writes N valid events as NDJSON and exits 0", async () => {
    const run = await spawnCli(["generate", "--count", "3", "--seed", "1"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const events = lines(run.stdout).map((line) => JSON.parse(line) as unknown);
    expect(events).toHaveLength(3);
    for (const event of events) expect(completeEventSchema.safeParse(event).success).toBe(true);
  });

  it("is byte-identical for the same seed across processes", async () => {
    const [first, second] = await Promise.all([
      spawnCli(["generate", "--count", "50", "--seed", "1"]),
      spawnCli(["generate", "--count", "50", "--seed", "1"]),
    ]);
    const other = await generateInProcess(["--count", "50", "--seed", "2"]);
    expect(first.stdout.length).toBeGreaterThan(0);
    expect(second.stdout).toBe(first.stdout);
    expect(other.stdout).not.toBe(first.stdout);
  });

  it("rejects an unknown variant with exit 2 and lists the valid names", async () => {
    const run = await spawnCli(["generate", "--count", "3", "--seed", "1", "--invalid", "nope"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("unknown --invalid variant 'nope'");
    expect(run.stderr).toContain("'all'");
    for (const name of INVALID_VARIANT_NAMES) expect(run.stderr).toContain(name);
  });

  it("stops quietly with exit 0 when the reader closes early, like `| head -1`", async () => {
    const run = await spawnCli(["generate", "--count", "10000000", "--seed", "1"], (child) =>
      child.stdout?.destroy(),
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
  });

  describe("--out", () => {
    it("writes the file, creating parent folders, and leaves nothing else behind", async ({
      tmpDir: folder,
    }) => {
      const file = join(folder, "nested", "deeper", "events.ndjson");
      const run = await spawnCli(["generate", "--count", "25", "--seed", "4", "--out", file]);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain("wrote 25 lines");
      const written = await readFile(file, "utf8");
      expect(lines(written)).toHaveLength(25);
      expect(written).toBe((await generateInProcess(["--count", "25", "--seed", "4"])).stdout);
      expect(await readdir(join(folder, "nested", "deeper"))).toEqual(["events.ndjson"]);
    });

    it("refuses a folder as the output file", async ({ tmpDir: folder }) => {
      const run = await generateInProcess(["--count", "1", "--seed", "1", "--out", folder]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("--out cannot write");
    });

    it("refuses a path under a file", async ({ tmpDir: folder }) => {
      const blocker = join(folder, "file");
      await writeFile(blocker, "");
      const run = await generateInProcess([
        "--count",
        "1",
        "--seed",
        "1",
        "--out",
        join(blocker, "events.ndjson"),
      ]);
      expect(run.code).toBe(2);
    });

    it("writes no file when interrupted, and exits 3", async ({ tmpDir: folder }) => {
      const file = join(folder, "events.ndjson");
      const controller = new AbortController();
      const running = generateInProcess(
        ["--count", "10000000", "--seed", "1", "--out", file],
        controller.signal,
      );
      // Interrupted only once lines have reached the disk, so the half-written file is there to be cleaned up.
      await vi.waitFor(
        async () => {
          const [temporary] = (await readdir(folder)).filter((name) => name.endsWith(".tmp"));
          expect(temporary).toBeDefined();
          expect((await stat(join(folder, temporary as string))).size).toBeGreaterThan(0);
        },
        { timeout: 20_000, interval: 10 },
      );
      controller.abort(new Error("received SIGINT"));
      const run = await running;
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(/interrupted after generating [1-9]\d* line\(s\); \S+ not written/);
      expect(await readdir(folder)).toEqual([]);
    });
  });
});

describe("event-harness generate (in process)", () => {
  it("treats '--out -' as stdout", async () => {
    const run = await generateInProcess(["--count", "2", "--seed", "1", "--out", "-"]);
    expect(run.code).toBe(0);
    expect(lines(run.stdout)).toHaveLength(2);
  });

  it("applies one variant to each of N valid events", async () => {
    const run = await generateInProcess(["--count", "4", "--seed", "1", "--invalid", "missing-type"]);
    expect(run.code).toBe(0);
    const bodies = lines(run.stdout).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(bodies).toHaveLength(4);
    for (const body of bodies) {
      expect(body).not.toHaveProperty("type");
      expect(eventSchemas.production.safeParse(body).success).toBe(false);
      expect(eventSchemas.lenient.safeParse(body).success).toBe(true);
    }
  });

  it("emits every variant per round with --invalid all, wrapped with metadata on request", async () => {
    const run = await generateInProcess(["--count", "2", "--seed", "1", "--invalid", "all", "--with-meta"]);
    expect(run.code).toBe(0);
    const records = lines(run.stdout).map(
      (line) =>
        JSON.parse(line) as {
          variant: string;
          violates: string;
          rule: string;
          path: unknown[];
          body: unknown;
        },
    );
    expect(records).toHaveLength(2 * INVALID_VARIANTS.length);
    expect(records.map((record) => record.variant)).toEqual([
      ...INVALID_VARIANT_NAMES,
      ...INVALID_VARIANT_NAMES,
    ]);
    for (const record of records) {
      expect(Object.keys(record)).toEqual(["variant", "violates", "rule", "path", "body"]);
      const variant = INVALID_VARIANTS.find((candidate) => candidate.name === record.variant);
      expect(variant).toBeDefined();
      if (variant === undefined) continue;
      expect(record).toMatchObject({
        violates: variant.violates,
        rule: variant.rule,
        path: [...variant.path],
      });
      for (const strictness of EVENT_STRICTNESS) {
        expect(
          eventSchemas[strictness].safeParse(record.body).success,
          `${record.variant} at ${strictness}`,
        ).toBe(!isRejectedAt(variant, strictness));
      }
    }
    // Each line comes from its own valid event, so a wrongly accepted body never collides with the next on reference.
    const references = records
      .map((record) => JSON.stringify(record.body).match(/"reference":"([^"]+)"/)?.[1])
      .filter((reference) => reference !== undefined);
    expect(new Set(references).size).toBe(references.length);
  });

  it("emits bare bodies with --invalid all and no --with-meta", async () => {
    const run = await generateInProcess(["--count", "1", "--seed", "1", "--invalid", "all"]);
    const output = lines(run.stdout);
    expect(output).toHaveLength(INVALID_VARIANTS.length);
    expect(output[INVALID_VARIANT_NAMES.indexOf("body-is-null")]).toBe("null");
  });

  it("uses --run-id in references and --channels for the pool size", async () => {
    const run = await generateInProcess([
      "--count",
      "20",
      "--seed",
      "1",
      "--run-id",
      "ci-123",
      "--channels",
      "1",
    ]);
    const events = lines(run.stdout).map(
      (line) => JSON.parse(line) as { channel: { id: string }; transaction: { reference: string } },
    );
    expect(events[0]?.transaction.reference).toBe("eah-ci-123-1");
    expect(new Set(events.map((event) => event.channel.id)).size).toBe(1);
  });

  it("lists the variant catalogue", async () => {
    const run = await generateInProcess(["--list-invalid"]);
    expect(run.code).toBe(0);
    for (const name of INVALID_VARIANT_NAMES) expect(run.stdout).toContain(name);
    expect(run.stdout.split("\n")[0]).toMatch(/^NAME\s+VIOLATES\s+PATH\s+RULE$/);
  });

  it("documents the options and gives examples in --help", async () => {
    const run = await generateInProcess(["--help"]);
    expect(run.code).toBe(0);
    for (const option of [
      "--count N",
      "--seed S",
      "--invalid NAME|all",
      "--with-meta",
      "--out FILE",
      "--run-id ID",
    ]) {
      expect(run.stdout).toContain(option);
    }
    expect(run.stdout).toContain("Examples:");
  });

  it.each([
    ["no --count", ["--seed", "1"], "--count is required"],
    ["--count 0", ["--count", "0", "--seed", "1"], "--count takes a whole number from 1 to 10000000"],
    ["--count too large", ["--count", "10000001", "--seed", "1"], "--count takes"],
    ["--count not a number", ["--count", "lots", "--seed", "1"], "--count takes"],
    ["a negative seed", ["--count", "1", "--seed=-1"], "--seed takes"],
    ["a seed beyond 32 bits", ["--count", "1", "--seed", "4294967296"], "--seed takes"],
    ["a bad run id", ["--count", "1", "--seed", "1", "--run-id", "my run"], "--run-id takes"],
    ["--channels 0", ["--count", "1", "--seed", "1", "--channels", "0"], "--channels takes"],
    [
      "--with-meta alone",
      ["--count", "1", "--seed", "1", "--with-meta"],
      "--with-meta only applies with --invalid",
    ],
    ["an unknown option", ["--count", "1", "--seed", "1", "--nope"], "nope"],
  ])("exits 2 for %s", async (_label, args, message) => {
    const run = await generateInProcess(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain("event-harness generate --help");
  });
});
