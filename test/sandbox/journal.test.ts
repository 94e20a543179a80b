import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { startSandbox } from "../../sandbox/index.ts";
import { test as it, validEvent } from "./support.ts";

describe("journal", () => {
  it("appends every accepted event as one NDJSON line, flushed by close(), and nothing else", async ({
    tmpDir: dir,
    testSandbox,
  }) => {
    const path = join(dir, "nested", "events.ndjson");
    await writeFile(join(dir, "keep.txt"), "");
    const t = await testSandbox({ journalPath: path });
    const token = await t.token();
    const pretty = validEvent();
    const accepted = [validEvent(), pretty];
    const refs: string[] = [];
    refs.push(((await t.postEvent(token, accepted[0])).json as { EventRef: string }).EventRef);
    refs.push(
      ((await t.postEvent(token, JSON.stringify(pretty, null, 2))).json as { EventRef: string }).EventRef,
    );
    expect((await t.postEvent(token, { type: "checkout" })).status).toBe(400);
    expect((await t.postEvent(token, pretty)).status).toBe(409);
    await t.sandbox.close();

    const lines = (await readFile(path, "utf8")).split("\n");
    expect(lines.at(-1)).toBe("");
    const entries = lines.slice(0, -1).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries).toEqual(
      accepted.map((event, index) => ({
        id: refs[index],
        createdAt: new Date(t.clock.now()).toISOString(),
        clientId: "sandbox-demo",
        event,
      })),
    );
  });

  it("appends to an existing journal instead of replacing it", async ({ tmpDir: dir, testSandbox }) => {
    const path = join(dir, "events.ndjson");
    await writeFile(path, '{"earlier":true}\n');
    const t = await testSandbox({ journalPath: path });
    await t.postEvent(await t.token(), validEvent());
    await t.sandbox.close();
    const lines = (await readFile(path, "utf8")).trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('{"earlier":true}');
  });

  it("fails to start when the journal cannot be written", async ({ tmpDir: dir }) => {
    await expect(startSandbox({ journalPath: dir })).rejects.toThrow(/EISDIR/);
  });
});
