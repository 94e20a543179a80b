import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { writeEvents } from "../../../cli/generate/write-events.ts";
import { UsageError } from "../../../core/index.ts";
import { eventSchemas } from "../../../domain/index.ts";
import { INVALID_VARIANTS } from "../../../generators/index.ts";
import { capturedIo } from "../../support/command-io.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

function lines(text: string): unknown[] {
  expect(text.endsWith("\n")).toBe(true);
  return text
    .slice(0, -1)
    .split("\n")
    .map((line) => JSON.parse(line) as unknown);
}

async function refusal(options: Parameters<typeof writeEvents>[0]): Promise<UsageError> {
  const error: unknown = await writeEvents(options, capturedIo().io).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UsageError);
  return error as UsageError;
}

describe("writeEvents", () => {
  it("writes N complete checkout events as NDJSON on stdout, nothing on stderr with a seed", async () => {
    const run = capturedIo();
    expect(await writeEvents({ count: "5", seed: "7" }, run.io)).toBe(0);
    const events = lines(run.stdout());
    expect(events).toHaveLength(5);
    for (const event of events) expect(eventSchemas.complete.safeParse(event).success).toBe(true);
    expect(run.stderr()).toBe("");
  });

  it("makes the same events from the same seed, other events from another", async () => {
    const first = capturedIo();
    const again = capturedIo();
    const other = capturedIo();
    await writeEvents({ count: "3", seed: "11" }, first.io);
    await writeEvents({ count: "3", seed: "11" }, again.io);
    await writeEvents({ count: "3", seed: "12" }, other.io);
    expect(again.stdout()).toBe(first.stdout());
    expect(other.stdout()).not.toBe(first.stdout());
  });

  it("says a random seed on stderr, which makes the same events again", async () => {
    const random = capturedIo();
    await writeEvents({ count: "2" }, random.io);
    const said = /^event-harness generate: seed (\d+) \(pass --seed \1 to repeat\)\n$/.exec(random.stderr());
    expect(said).not.toBeNull();
    const repeat = capturedIo();
    await writeEvents({ count: "2", seed: said?.[1] as string }, repeat.io);
    expect(repeat.stdout()).toBe(random.stdout());
  });

  it("makes each event invalid by the variant named, at the strictness it violates", async () => {
    const run = capturedIo();
    await writeEvents({ count: "4", seed: "3", invalid: "missing-email" }, run.io);
    const bodies = lines(run.stdout());
    expect(bodies).toHaveLength(4);
    for (const body of bodies) {
      expect(eventSchemas.production.safeParse(body).success).toBe(false);
      expect((body as { customer: Record<string, unknown> }).customer).not.toHaveProperty("email");
    }
  });

  it("writes every variant per round with --invalid all, with its metadata on request", async () => {
    const run = capturedIo();
    await writeEvents({ count: "2", seed: "3", invalid: "all", "with-meta": true }, run.io);
    const rows = lines(run.stdout()) as { variant: string; violates: "lenient"; body: unknown }[];
    expect(rows).toHaveLength(2 * INVALID_VARIANTS.length);
    expect(rows.slice(0, INVALID_VARIANTS.length).map((row) => row.variant)).toEqual(
      INVALID_VARIANTS.map((variant) => variant.name),
    );
    const rejected = rows.filter((row) => !eventSchemas[row.violates].safeParse(row.body).success);
    // Some variants are allowed by the spec's schema and broken only by the generator's own form.
    expect(rejected.length).toBeGreaterThan(rows.length / 2);
  });

  it("uses --run-id in the events' references", async () => {
    const run = capturedIo();
    await writeEvents({ count: "2", seed: "1", "run-id": "rel-42" }, run.io);
    expect(run.stdout()).toContain("rel-42");
  });

  it("writes --out whole, creating its folder, and says where and with which seed", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "data", "events.ndjson");
    const run = capturedIo();
    expect(await writeEvents({ count: "3", seed: "9", out: file, "run-id": "r1" }, run.io)).toBe(0);
    expect(lines(await readFile(file, "utf8"))).toHaveLength(3);
    expect(await readdir(path.dirname(file))).toEqual(["events.ndjson"]);
    expect(run.stdout()).toBe("");
    expect(run.stderr()).toBe(`event-harness generate: wrote 3 lines to ${file} (seed 9, run r1)\n`);
  });

  it("treats --out - as stdout", async () => {
    const run = capturedIo();
    await writeEvents({ count: "1", seed: "9", out: "-" }, run.io);
    expect(lines(run.stdout())).toHaveLength(1);
  });

  it("writes nothing when interrupted, keeps an earlier file, and exits 3", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "events.ndjson");
    await writeFile(file, "earlier\n");
    const controller = new AbortController();
    controller.abort();
    const run = capturedIo({}, controller.signal);
    expect(await writeEvents({ count: "100", seed: "9", out: file }, run.io)).toBe(3);
    expect(await readFile(file, "utf8")).toBe("earlier\n");
    expect(await readdir(tmpDir)).toEqual(["events.ndjson"]);
    expect(run.stderr()).toMatch(
      /^event-harness generate: interrupted after generating \d+ line\(s\); .* not written\n$/,
    );
  });

  it("refuses a folder as --out with a usage error", async ({ tmpDir }) => {
    const error = await refusal({ count: "1", seed: "1", out: tmpDir });
    expect(error.code).toBe("invalid-value");
    expect(error.message).toContain(`--out cannot write ${tmpDir}`);
  });

  it("refuses a path under a file with a usage error", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "plain");
    await writeFile(file, "x");
    expect((await refusal({ count: "1", seed: "1", out: path.join(file, "events.ndjson") })).code).toBe(
      "invalid-value",
    );
  });

  it("requires --count, within its range", async () => {
    const missing = await refusal({ seed: "1" });
    expect(missing.code).toBe("missing-argument");
    expect(missing.message).toMatch(/^--count is required \(1 to \d+\)$/);
    expect((await refusal({ count: "0", seed: "1" })).code).toBe("invalid-value");
    expect((await refusal({ count: "2.5", seed: "1" })).code).toBe("invalid-value");
  });

  it("refuses a run id outside its pattern, an unknown variant, and --with-meta alone", async () => {
    const runId = await refusal({ count: "1", seed: "1", "run-id": "-starts-with-dash" });
    expect(runId.code).toBe("invalid-value");
    expect(runId.message).toContain("--run-id takes 1 to 64 letters");
    expect((await refusal({ count: "1", seed: "1", "run-id": "r".repeat(65) })).code).toBe("invalid-value");
    const variant = await refusal({ count: "1", seed: "1", invalid: "missing-emial" });
    expect(variant.message).toContain("unknown --invalid variant 'missing-emial'; use 'all' or one of: ");
    expect(variant.message).toContain("missing-email");
    expect((await refusal({ count: "1", seed: "1", "with-meta": true })).message).toBe(
      "--with-meta only applies with --invalid",
    );
  });

  it("lists the variants as a table, one row each, aligned", async () => {
    const run = capturedIo();
    expect(await writeEvents({ "list-invalid": true }, run.io)).toBe(0);
    const rows = run.stdout().slice(0, -1).split("\n");
    expect(rows).toHaveLength(1 + INVALID_VARIANTS.length);
    const header = rows[0] as string;
    expect(header).toMatch(/^NAME\s+VIOLATES\s+PATH\s+RULE$/);
    const pathColumn = header.indexOf("PATH");
    const bodyRow = rows.find((row) => row.startsWith("body-is-null ")) as string;
    expect(bodyRow.slice(pathColumn, pathColumn + "(body)".length)).toBe("(body)");
    const emailRow = rows.find((row) => row.startsWith("missing-email ")) as string;
    expect(emailRow.slice(header.indexOf("VIOLATES")).startsWith("production")).toBe(true);
    expect(emailRow.slice(pathColumn).startsWith("customer.email ")).toBe(true);
  });
});
