import { readdir } from "node:fs/promises";
import path from "node:path";
import { PassThrough } from "node:stream";
import type { CommandIo } from "../../../cli/command.ts";
import { prepareContract, readContractOptions } from "../../../cli/contract/prepare-contract.ts";
import type { ContractOptionValues } from "../../../cli/options/contract-options.ts";
import { UsageError } from "../../../core/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

function ioWith(env: NodeJS.ProcessEnv = {}): CommandIo {
  return { stdout: new PassThrough(), stderr: new PassThrough(), env, signal: new AbortController().signal };
}

async function refusal(options: ContractOptionValues, env: NodeJS.ProcessEnv = {}): Promise<UsageError> {
  const error: unknown = await readContractOptions(options, ioWith(env)).then(
    () => new Error("accepted"),
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof UsageError)) throw error;
  return error;
}

describe("readContractOptions", () => {
  it("reads the embedded sandbox's choices and the rerun line that repeats what decides the run, not the seed", async ({
    tmpDir,
  }) => {
    const reportDir = path.join(tmpDir, "reports");
    const checked = await readContractOptions(
      {
        "report-dir": reportDir,
        seed: "42",
        "sandbox-fault": ["bearer-alg-none"],
        "sandbox-expires-in": "5",
        "fuzz-runs": "3",
        quiet: true,
      },
      ioWith(),
    );
    expect(checked).toMatchObject({
      profile: "fast",
      only: [],
      seed: 42,
      expiresIn: 5,
      faults: ["bearer-alg-none"],
      external: undefined,
      runTimeoutMs: undefined,
      ledger: undefined,
      reportDir,
      quiet: true,
    });
    expect(checked.fuzz.runs).toBe(3);
    expect(checked.rerun).toBe(
      "npx --no-install event-harness contract --profile fast --sandbox-fault bearer-alg-none --sandbox-expires-in 5 --fuzz-runs 3",
    );
    expect(await readdir(tmpDir)).toEqual(["reports"]);
  });

  it("splits --only at commas, trims and drops empty names", async ({ tmpDir }) => {
    const checked = await readContractOptions(
      { "report-dir": tmpDir, only: ["token, bearer", " ", "events,"] },
      ioWith(),
    );
    expect(checked.only).toEqual(["token", "bearer", "events"]);
  });

  it("refuses an --only that names no check, with the closest id or area", async ({ tmpDir }) => {
    const error = await refusal({ "report-dir": tmpDir, only: ["tokn", "nothing-like-it"] });
    expect(error.code).toBe("invalid-value");
    expect(error.message).toBe("--only names no check: tokn, nothing-like-it; did you mean 'token'?");
  });

  it("refuses an --only that selects checks of the full profile alone in the fast profile, and takes it in full", async ({
    tmpDir,
  }) => {
    const error = await refusal({ "report-dir": tmpDir, only: ["lifetime.sliding"] });
    expect(error.message).toBe(
      "--only lifetime.sliding selects no check of the fast profile: add --profile full",
    );
    const full = await readContractOptions(
      { "report-dir": tmpDir, only: ["lifetime.sliding"], profile: "full" },
      ioWith(),
    );
    expect(full).toMatchObject({ profile: "full", only: ["lifetime.sliding"] });
  });

  it("refuses a seed out of range and an unknown profile", async ({ tmpDir }) => {
    expect((await refusal({ "report-dir": tmpDir, seed: "-1" })).message).toMatch(
      /^--seed takes a whole number/,
    );
    expect((await refusal({ "report-dir": tmpDir, seed: "4294967296" })).code).toBe("invalid-value");
    expect((await refusal({ "report-dir": tmpDir, profile: "slow" })).code).toBe("invalid-value");
  });

  it("refuses sandbox options with a target of the user's, before the report directory is made", async ({
    tmpDir,
    sandbox,
    targetEnv,
  }) => {
    const env = targetEnv(await sandbox());
    const reportDir = path.join(tmpDir, "reports");
    for (const options of [{ "sandbox-fault": ["bearer-alg-none"] }, { "sandbox-expires-in": "5" }]) {
      const error = await refusal({ "report-dir": reportDir, ...options }, env);
      expect(error).toMatchObject({
        code: "invalid-config",
        message: "--sandbox-fault and --sandbox-expires-in apply only to the embedded sandbox",
      });
    }
    expect(await readdir(tmpDir)).toEqual([]);
  });
});

describe("prepareContract", () => {
  it("starts the embedded sandbox with the chosen lifetime and faults, and hides its secret", async ({
    tmpDir,
  }) => {
    const checked = await readContractOptions(
      { "report-dir": tmpDir, "sandbox-fault": ["bearer-alg-none"], "sandbox-expires-in": "7" },
      ioWith(),
    );
    const prepared = await prepareContract(checked);
    try {
      const { sandbox } = prepared;
      expect(sandbox).toBeDefined();
      expect(sandbox?.expiresIn).toBe(7);
      expect(sandbox?.faults).toEqual(["bearer-alg-none"]);
      expect(prepared.configured.tokenUrl).toBe(sandbox?.tokenUrl);
      expect(prepared.configured.baseUrl).toBe(sandbox?.baseUrl);
      const secret = sandbox?.clients[0]?.clientSecret ?? "";
      expect(secret).not.toBe("");
      expect(prepared.redactor.redact(`sent ${secret}`)).toBe("sent <CLIENT_SECRET>");
      expect(prepared.deadline).toMatchObject({ startedAt: prepared.started, fixed: false });
      expect(prepared.deadline.budgetMs).toBeGreaterThan(0);
      expect(prepared).not.toHaveProperty("external");
      expect(prepared).not.toHaveProperty("runTimeoutMs");
    } finally {
      await prepared.sandbox?.close();
    }
  });

  it("uses the user's target as given, starts no sandbox, and keeps a --run-timeout as a fixed deadline", async ({
    tmpDir,
    sandbox,
    targetEnv,
  }) => {
    const target = await sandbox();
    const checked = await readContractOptions(
      { "report-dir": tmpDir, "run-timeout": "90" },
      ioWith(targetEnv(target, "the-users-own-secret")),
    );
    const prepared = await prepareContract(checked);
    expect(prepared.sandbox).toBeUndefined();
    expect(prepared.configured).toBe(checked.external);
    expect(prepared.configured.baseUrl).toBe(target.baseUrl);
    expect(prepared.deadline).toEqual({ startedAt: prepared.started, budgetMs: 90_000, fixed: true });
    expect(prepared.redactor.redact("the-users-own-secret")).toBe("<CLIENT_SECRET>");
  });
});
