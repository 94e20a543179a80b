import { readFile } from "node:fs/promises";
import path from "node:path";
import { writeEventTemplates } from "../../../k6-tooling/run/write-event-templates.ts";
import { EVENT_TEMPLATE_FORMAT } from "../../../load/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

describe("writeEventTemplates", () => {
  it("writes the run's templates as JSON and says how many bytes it wrote", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "event-templates.json");
    const bytes = await writeEventTemplates(file, {
      runId: "run-7",
      seed: 11,
      count: 4,
      channelId: "chl-web",
    });
    const written = await readFile(file);
    expect(bytes).toBe(written.length);
    const parsed = JSON.parse(written.toString("utf8")) as {
      format: string;
      runId: string;
      templates: unknown[];
    };
    expect(parsed.format).toBe(EVENT_TEMPLATE_FORMAT);
    expect(parsed.runId).toBe("run-7");
    expect(parsed.templates).toHaveLength(4);
  });

  it("counts bytes, not characters, for a wide event's non-ASCII text", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "wide.json");
    const bytes = await writeEventTemplates(file, { runId: "wide", seed: 3, count: 50, events: "wide" });
    const text = await readFile(file, "utf8");
    expect(bytes).toBe((await readFile(file)).length);
    // The wide generator writes non-ASCII text, where bytes and characters differ.
    expect(bytes).toBeGreaterThan(text.length);
  });

  it("fails as the file system does when the file cannot be written", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "missing-dir", "event-templates.json");
    await expect(writeEventTemplates(file, { runId: "r", seed: 1, count: 1 })).rejects.toMatchObject({
      code: "ENOENT",
    });
  });
});
