import { writeFile } from "node:fs/promises";
import path from "node:path";
import { ledgerScope, resolveLedger } from "../../cli/accepted-ledger.ts";
import { UsageError } from "../../core/index.ts";
import type { Target } from "../../transport/index.ts";
import { Secret } from "../../transport/index.ts";
import { describe, expect, it } from "../support/fixtures.ts";

const NOW = new Date("2026-11-24T23:30:00Z");

async function ledgerFile(dir: string, value: unknown, name = "accepted.json"): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, typeof value === "string" ? value : JSON.stringify(value));
  return file;
}

const ENTRY = { id: "token.no-store", reason: "a proxy strips the header", expires: "2027-01-31" };

describe("ledgerScope", () => {
  it("is the embedded sandbox without a target, and the API's base URL with one", () => {
    expect(ledgerScope(undefined, {})).toEqual({ environment: undefined, target: "embedded" });
    const target = {
      baseUrl: "https://api.example.com",
      clientSecret: new Secret("s"),
    } as unknown as Target;
    expect(ledgerScope(target, {})).toEqual({
      environment: undefined,
      target: { baseUrl: "https://api.example.com" },
    });
  });

  it("names the config environment the run took, only when a file and an environment are both given", () => {
    const env = { EVENT_HARNESS_CONFIG: "harness.json", EVENT_HARNESS_ENVIRONMENT: " staging " };
    expect(ledgerScope(undefined, env).environment).toBe("staging");
    expect(ledgerScope(undefined, { EVENT_HARNESS_ENVIRONMENT: "staging" }).environment).toBeUndefined();
  });
});

describe("resolveLedger", () => {
  it("reads no ledger when none is named, or only blanks", async () => {
    expect(await resolveLedger(undefined, {})).toBeUndefined();
    expect(await resolveLedger(undefined, { EVENT_HARNESS_ACCEPTED: "  " })).toBeUndefined();
    expect(await resolveLedger(" ", {})).toBeUndefined();
  });

  it("reads the file the option names before the variable's, judged on the UTC day of `now`", async ({
    tmpDir,
  }) => {
    const named = await ledgerFile(tmpDir, { accepted: [ENTRY] });
    const fromEnv = await ledgerFile(tmpDir, "not even JSON", "env.json");
    const ledger = await resolveLedger(named, { EVENT_HARNESS_ACCEPTED: fromEnv }, undefined, NOW);
    expect(ledger).toEqual({ file: named, today: "2026-11-24", entries: [ENTRY] });
    expect(ledger).not.toHaveProperty("scope");
  });

  it("reads the variable when no option is given, and binds the ledger to the run's scope", async ({
    tmpDir,
  }) => {
    const file = await ledgerFile(tmpDir, { accepted: [] });
    const scope = { environment: "staging", target: { baseUrl: "https://api.example.com" } } as const;
    const ledger = await resolveLedger(undefined, { EVENT_HARNESS_ACCEPTED: file }, scope, NOW);
    expect(ledger).toMatchObject({ file, entries: [], scope });
  });

  it("refuses an entry naming no check with the closest id, as a usage error", async ({ tmpDir }) => {
    const file = await ledgerFile(tmpDir, { accepted: [{ ...ENTRY, id: "token.no-stor" }] });
    const error: unknown = await resolveLedger(file, {}, undefined, NOW).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({ code: "invalid-config" });
    expect((error as Error).message).toMatch(
      /names no check, load gate or baseline figure.*; did you mean 'token\.no-store'\?$/,
    );
  });

  it("refuses a malformed or missing ledger without a guess", async ({ tmpDir }) => {
    const broken = await ledgerFile(tmpDir, "{");
    await expect(resolveLedger(broken, {}, undefined, NOW)).rejects.toMatchObject({
      code: "invalid-config",
      message: expect.not.stringContaining("did you mean"),
    });
    await expect(resolveLedger(path.join(tmpDir, "missing.json"), {}, undefined, NOW)).rejects.toBeInstanceOf(
      UsageError,
    );
  });
});
