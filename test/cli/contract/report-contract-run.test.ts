import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { PassThrough } from "node:stream";
import type { CommandIo } from "../../../cli/command.ts";
import { reportContractRun } from "../../../cli/contract/report-contract-run.ts";
import type { CheckResult, CheckStatus } from "../../../contracts/index.ts";
import { Redactor } from "../../../contracts/index.ts";
import type { Ledger } from "../../../reporting/accepted/index.ts";
import type { ContractRun } from "../../../reporting/contract/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { xmlProblems } from "../../support/xml-document.ts";

const KEY = "query-key-0123456789";

function check(id: string, status: CheckStatus, level: CheckResult["level"] = "SHOULD"): CheckResult {
  return {
    id,
    title: `${id} title`,
    area: "token",
    level,
    rule: "RFC 6749 §5.1",
    status,
    message: `${status.toLowerCase()} for a reason`,
    durationMs: 3,
    evidence: [],
  };
}

function runOf(checks: readonly CheckResult[], extra: Partial<ContractRun> = {}): ContractRun {
  return {
    tool: { name: "event-api-harness", version: "0.0.0" },
    suite: "contract (fast)",
    profile: "fast",
    seed: 7,
    startedAt: "2026-11-24T00:00:00.000Z",
    durationMs: 1234,
    target: {
      tokenUrl: `https://auth.example.com/oauth/token?key=${KEY}`,
      baseUrl: `https://api.example.com/?key=${KEY}`,
      clientId: "shop",
      audience: `https://api.example.com/?key=${KEY}`,
      clientAuth: "post",
      insecure: false,
      embedded: false,
    },
    checks,
    rerun: `npx --no-install event-harness contract --base-url 'https://api.example.com/?key=${KEY}'`,
    ...extra,
  };
}

function capture(): { io: CommandIo; stdout: () => string } {
  const stdout = new PassThrough().setEncoding("utf8");
  return {
    io: { stdout, stderr: new PassThrough(), env: {}, signal: new AbortController().signal },
    stdout: () => String(stdout.read() ?? ""),
  };
}

const redactor = () => new Redactor().add(KEY, "<KEY>");

describe("reportContractRun", () => {
  it("writes the three reports, names them on the console, and exits 0 when every check passed", async ({
    tmpDir,
  }) => {
    const out = capture();
    const code = await reportContractRun(
      runOf([check("token.issued", "PASS"), check("token.no-store", "WARN")]),
      tmpDir,
      redactor(),
      out.io,
    );
    expect(code).toBe(0);
    expect((await readdir(tmpDir)).sort()).toEqual(["junit.xml", "results.json", "summary.md"]);
    const results = JSON.parse(await readFile(path.join(tmpDir, "results.json"), "utf8")) as {
      checks: { id: string; status: string }[];
    };
    expect(results.checks.map((c) => [c.id, c.status])).toEqual([
      ["token.issued", "PASS"],
      ["token.no-store", "WARN"],
    ]);
    expect(xmlProblems(await readFile(path.join(tmpDir, "junit.xml"), "utf8"))).toEqual([]);
    expect(out.stdout()).toContain(`Reports: ${path.join(tmpDir, "results.json")}`);
  });

  it("redacts the user's values in the target and the rerun line of every report and the console", async ({
    tmpDir,
  }) => {
    const out = capture();
    await reportContractRun(runOf([check("token.issued", "PASS")]), tmpDir, redactor(), out.io);
    const written = await Promise.all(
      ["results.json", "junit.xml", "summary.md"].map((name) => readFile(path.join(tmpDir, name), "utf8")),
    );
    for (const text of [...written, out.stdout()]) expect(text).not.toContain(KEY);
    const results = JSON.parse(written[0] ?? "") as { target: { baseUrl: string; audience: string } };
    expect(results.target.baseUrl).toBe("https://api.example.com/?key=<KEY>");
    expect(results.target.audience).toBe("https://api.example.com/?key=<KEY>");
  });

  it("exits 1 on a FAIL, 3 on an ERROR alone, an interrupted run or a target that could not be tested", async ({
    tmpDir,
  }) => {
    const at = (name: string) => path.join(tmpDir, name);
    const passed = [check("token.issued", "PASS")];
    expect(
      await reportContractRun(
        runOf([check("a", "FAIL"), check("b", "ERROR")]),
        at("1"),
        redactor(),
        capture().io,
      ),
    ).toBe(1);
    expect(
      await reportContractRun(runOf([check("a", "ERROR"), ...passed]), at("2"), redactor(), capture().io),
    ).toBe(3);
    expect(
      await reportContractRun(
        runOf(passed, { aborted: "interrupted (received SIGINT)" }),
        at("3"),
        redactor(),
        capture().io,
      ),
    ).toBe(3);
    expect(
      await reportContractRun(runOf(passed, { couldNotTest: "refused" }), at("4"), redactor(), capture().io),
    ).toBe(3);
  });

  it("judges with the ledger: a FAIL it accepts is waived, the run passes, and results.json names the ledger", async ({
    tmpDir,
  }) => {
    const ledger: Ledger = {
      file: "gate/accepted.json",
      today: "2026-11-24",
      entries: [{ id: "token.no-store", reason: "a proxy strips the header", expires: "2027-01-31" }],
    };
    const code = await reportContractRun(
      runOf([check("token.issued", "PASS"), check("token.no-store", "FAIL")]),
      tmpDir,
      redactor(),
      capture().io,
      ledger,
    );
    expect(code).toBe(0);
    const results = JSON.parse(await readFile(path.join(tmpDir, "results.json"), "utf8")) as {
      acceptedFile?: string;
      checks: { id: string; status: string }[];
    };
    expect(results.acceptedFile).toBe("gate/accepted.json");
    expect(results.checks.find((c) => c.id === "token.no-store")?.status).toBe("WAIVED");
  });
});
