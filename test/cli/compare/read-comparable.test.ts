import { writeFile } from "node:fs/promises";
import path from "node:path";
import { checkComparable, LOAD_RECORD_FILE, readComparable } from "../../../cli/compare/read-comparable.ts";
import { UsageError } from "../../../core/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { hostileFile } from "../../support/hostile-files.ts";
import { loadRecord, steady } from "../../support/load-record-fixture.ts";

async function refusal(given: string, signal?: AbortSignal): Promise<UsageError> {
  const error: unknown = await readComparable(given, "compare", signal).then(
    () => new Error("accepted"),
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof UsageError)) throw error;
  expect(error).toMatchObject({ code: "invalid-config", command: "compare" });
  return error;
}

function thrownBy(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

const contractResults = {
  profile: "fast",
  target: { clientId: "shop", baseUrl: "https://api.example.com", embedded: false },
  checks: [
    { id: "token.issues", status: "PASS", title: "ignored" },
    { id: "events.accepts", status: "FAIL" },
  ],
};

describe("readComparable", () => {
  it("reads a load baseline file as the load record it holds", async ({ tmpDir }) => {
    const record = loadRecord(1, steady(3));
    const file = path.join(tmpDir, "base.json");
    await writeFile(file, JSON.stringify(record));
    const comparable = await readComparable(file, "compare");
    expect(comparable.kind).toBe("load");
    expect(comparable.name).toBe(file);
    if (comparable.kind === "load") {
      expect(comparable.record.runId).toBe("run-1");
      expect(comparable.record.units).toHaveLength(3);
      expect(comparable.record.settings.scenario).toBe("sustained");
    }
  });

  it("reads a load report dir through its baseline.json, before a results.json beside it", async ({
    tmpDir,
  }) => {
    await writeFile(path.join(tmpDir, LOAD_RECORD_FILE), JSON.stringify(loadRecord(2, steady(2))));
    await writeFile(path.join(tmpDir, "results.json"), JSON.stringify(contractResults));
    const comparable = await readComparable(tmpDir, "load");
    expect(comparable).toMatchObject({ kind: "load", name: path.join(tmpDir, "baseline.json") });
  });

  it("reads a contract report dir's checks, ids and statuses only, with what the run was", async ({
    tmpDir,
  }) => {
    await writeFile(path.join(tmpDir, "results.json"), JSON.stringify(contractResults));
    expect(await readComparable(tmpDir, "compare")).toEqual({
      kind: "contract",
      name: path.join(tmpDir, "results.json"),
      run: {
        checks: [
          { id: "token.issues", status: "PASS" },
          { id: "events.accepts", status: "FAIL" },
        ],
        profile: "fast",
        clientId: "shop",
        baseUrl: "https://api.example.com",
        embedded: false,
      },
    });
  });

  it("makes a contract file's words inert and leaves out what is not text", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "results.json");
    await writeFile(
      file,
      JSON.stringify({
        profile: 7,
        target: "not an object",
        checks: [{ id: "token.x\u001b[31m\n::error::boom", status: "PASS\r" }],
      }),
    );
    const comparable = await readComparable(file, "compare");
    expect(comparable.kind).toBe("contract");
    if (comparable.kind !== "contract") return;
    expect(comparable.run).toEqual({ checks: [comparable.run.checks[0]] });
    const check = comparable.run.checks[0];
    expect([...(check?.id ?? "")].filter((char) => char < " ")).toEqual([]);
    expect(check?.id).toContain("\\x1b");
    expect(check?.id).not.toMatch(/(^|\s)::error::/);
    expect(check?.status).toBe("PASS\\r");
  });

  it("refuses a path that does not exist, and a dir that holds neither record", async ({ tmpDir }) => {
    expect((await refusal(path.join(tmpDir, "missing"))).message).toBe(
      `${path.join(tmpDir, "missing")} does not exist`,
    );
    expect((await refusal(tmpDir)).message).toBe(
      `${tmpDir} holds neither baseline.json (a load run) nor results.json (a contract run)`,
    );
  });

  it("refuses a file that is not JSON, a broken load record, and JSON of another kind", async ({
    tmpDir,
  }) => {
    const notJson = path.join(tmpDir, "a.json");
    await writeFile(notJson, "{ nope");
    expect((await refusal(notJson)).message).toBe(
      `cannot read ${notJson} as JSON: not valid at line 1, column 3`,
    );
    // The parser's own message quotes the text around the error; a secret there is never echoed.
    const secretJson = path.join(tmpDir, "s.json");
    await writeFile(secretJson, '{"units": [1, 2],\n "token": eyJhbGciOiJIUzI1NiJ9.c2VjcmV0.sig }');
    const secretRefusal = (await refusal(secretJson)).message;
    expect(secretRefusal).toBe(`cannot read ${secretJson} as JSON: not valid at line 2, column 11`);
    expect(secretRefusal).not.toContain("eyJ");
    const broken = path.join(tmpDir, "b.json");
    const { units: _units, ...noUnits } = loadRecord(3, steady(2));
    await writeFile(broken, JSON.stringify(noUnits));
    expect((await refusal(broken)).message).toMatch(/b\.json is no usable load baseline: /);
    for (const other of [[], { checks: "no" }, { checks: [{ id: 1, status: "PASS" }] }, null]) {
      const file = path.join(tmpDir, "c.json");
      await writeFile(file, JSON.stringify(other));
      expect((await refusal(file)).message).toMatch(
        /c\.json is neither a load baseline \(format .+\) nor a contract results\.json$/,
      );
    }
  });

  it("refuses a FIFO without waiting on it, and an oversized record, naming why", async ({ tmpDir }) => {
    expect((await refusal(await hostileFile(tmpDir, "fifo"))).message).toMatch(
      /^cannot read \S+fifo: .*it is a FIFO \(named pipe\), not a regular file/,
    );
    expect((await refusal(await hostileFile(tmpDir, "oversized"))).message).toMatch(
      /it holds more than 16 MiB/,
    );
  });

  it("parses nothing once the signal has aborted", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "base.json");
    await writeFile(file, JSON.stringify(loadRecord(4, steady(2))));
    const controller = new AbortController();
    controller.abort(new Error("received SIGINT"));
    await expect(readComparable(file, "compare", controller.signal)).rejects.toThrow("received SIGINT");
  });
});

describe("checkComparable", () => {
  it("accepts runs with no difference", () => {
    expect(() => checkComparable([], [], "compare")).not.toThrow();
  });

  it("names every setting that differs first, then every target mismatch", () => {
    expect(
      thrownBy(() => checkComparable(["rate 50 → 60", "vus 10 → 20"], ["faults"], "load")),
    ).toMatchObject({
      code: "invalid-config",
      command: "load",
      message:
        "cannot compare runs with different load settings (rate 50 → 60, vus 10 → 20): run the candidate with the baseline's settings",
    });
    expect(
      thrownBy(() =>
        checkComparable([], ["embedded sandbox vs https://api.example.com", "faults a vs b"], "load"),
      ),
    ).toMatchObject({
      code: "invalid-config",
      command: "load",
      message:
        "cannot compare runs against different targets (embedded sandbox vs https://api.example.com; faults a vs b): a baseline belongs to the target it was taken on",
    });
  });
});
