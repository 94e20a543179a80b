import { execFileSync } from "node:child_process";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { contractCommand } from "../../cli/commands/contract.ts";
import { commands } from "../../cli/commands/index.ts";
import { loadCommand } from "../../cli/commands/load.ts";
import { runCommand } from "../../cli/commands/run.ts";
import { sandboxCommand } from "../../cli/commands/sandbox.ts";
import { main } from "../../cli/main.ts";
import packageJson from "../../package.json" with { type: "json" };
import { runInProcess } from "../support/run-in-process.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

async function runMain(argv: readonly string[]) {
  const stdout = new PassThrough().setEncoding("utf8");
  const stderr = new PassThrough().setEncoding("utf8");
  const code = await main(argv, commands, { stdout, stderr, env: {}, signal: new AbortController().signal });
  return { code, stdout: String(stdout.read() ?? ""), stderr: String(stderr.read() ?? "") };
}

describe("conventions users expect", () => {
  it("--version and -V print the package's version and the checkout's commit on stdout, exit 0", async () => {
    // git itself is the oracle: the commit this checkout is at, and whether tracked files differ from it.
    const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();
    const commit = git("rev-parse", "HEAD").slice(0, 12);
    const changes =
      git("status", "--porcelain", "--untracked-files=no") === "" ? "" : " with uncommitted changes";
    for (const flag of ["--version", "-V"]) {
      expect(await runMain([flag])).toEqual({
        code: 0,
        stdout: `${packageJson.version} (commit ${commit}${changes}, source checkout)\n`,
        stderr: "",
      });
    }
  });

  it("help <command> is <command> --help", async () => {
    const viaHelp = await runMain(["help", "generate"]);
    const viaFlag = await runMain(["generate", "--help"]);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toContain("Usage: event-harness generate");
    expect(viaHelp).toEqual(viaFlag);
  });

  it("a mistyped command gets the closest one suggested (exit 2)", async () => {
    const result = await runMain(["lod"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command 'lod'; did you mean 'load'?");
  });

  it("a mistyped option gets the closest one suggested (exit 2)", async () => {
    const result = await runInProcess(loadCommand, ["sustained", "--rat", "5"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown option '--rat'; did you mean '--rate'? [unknown-option]");
  });

  it("a negative number gets the harness's range message, not the parser's (exit 2)", async () => {
    const result = await runInProcess(loadCommand, ["sustained", "--rate", "-5"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--rate takes a number from 0.01 to 100000, got '-5' [invalid-value]");
    const dashed = await runInProcess(loadCommand, ["sustained", "--rate", "-x"]);
    expect(dashed.code).toBe(2);
    expect(dashed.stderr).toContain(
      "--rate needs a value; a value that starts with a dash is written --rate=VALUE",
    );
  });

  it("a mistyped scenario, fault or check id gets the closest one suggested (exit 2)", async () => {
    const scenario = await runInProcess(loadCommand, ["sustaned"]);
    expect(scenario.code).toBe(2);
    expect(scenario.stderr).toContain("unknown scenario 'sustaned'; did you mean 'sustained'?");
    const runScenario = await runInProcess(runCommand, ["--scenario", "spikes"]);
    expect(runScenario.code).toBe(2);
    expect(runScenario.stderr).toContain("did you mean 'spike'?");
    const fault = await runInProcess(sandboxCommand, ["--fault", "expiry-fixd"]);
    expect(fault.code).toBe(2);
    expect(fault.stderr).toContain("unknown fault 'expiry-fixd'; did you mean 'expiry-fixed'?");
    const sandboxFault = await runInProcess(contractCommand, ["--sandbox-fault", "expiry-fixd"]);
    expect(sandboxFault.code).toBe(2);
    expect(sandboxFault.stderr).toContain("did you mean 'expiry-fixed'?");
    const check = await runInProcess(contractCommand, ["--only", "token.isued"]);
    expect(check.code).toBe(2);
    expect(check.stderr).toContain("--only names no check: token.isued; did you mean 'token.issued'?");
    const profile = await runInProcess(contractCommand, ["--profile", "fulll"]);
    expect(profile.code).toBe(2);
    expect(profile.stderr).toContain("did you mean 'full'?");
  });
});

describe("help texts", () => {
  it("lists the target options under their own heading, after the command's own options", async () => {
    for (const name of ["contract", "load", "run", "verify-rotation"]) {
      const { code, stdout } = await runMain([name, "--help"]);
      expect(code).toBe(0);
      const own = stdout.indexOf("\nOptions:\n");
      const target = stdout.indexOf("\nTarget options (the API under test):\n");
      expect(own).toBeGreaterThan(0);
      expect(target).toBeGreaterThan(own);
      expect(stdout.slice(target)).toContain("--auth-url URL");
      expect(stdout.slice(own, target)).not.toContain("--auth-url");
    }
  });

  it("says 'repeatable' at most once per option", async () => {
    for (const entry of commands) {
      const { stdout } = await runMain([entry.name, "--help"]);
      for (const line of stdout.split("\n")) expect(line.match(/repeatable/gi)?.length ?? 0).toBeLessThan(2);
    }
  });

  it("points at the sandbox's fault list where it is", async () => {
    const sandbox = (await runMain(["sandbox", "--help"])).stdout;
    expect(sandbox).toContain("--fault NAME");
    expect(sandbox).toContain("Switch a fault on (see Faults above)");
    expect(sandbox.indexOf("Faults (--fault NAME")).toBeLessThan(sandbox.indexOf("\nOptions:\n"));
    for (const name of ["contract", "load", "run"]) {
      // Help wraps to the width: a sentence may span lines.
      expect((await runMain([name, "--help"])).stdout.replace(/\s+/g, " ")).toContain(
        "the faults are listed by `event-harness sandbox --help`",
      );
    }
  });

  it("run and contract say why their default profiles differ", async () => {
    expect((await runMain(["run", "--help"])).stdout).toContain("`contract` defaults to fast");
    expect((await runMain(["contract", "--help"])).stdout).toContain("`run` defaults to full");
  });

  it("generate picks a random seed when none is given and says it on stderr, so the events can be made again", async () => {
    const first = await runMain(["generate", "--count", "2"]);
    expect(first.code).toBe(0);
    const seed = /^event-harness generate: seed (\d+) \(pass --seed \d+ to repeat\)\n$/.exec(
      first.stderr,
    )?.[1];
    expect(seed).toBeDefined();
    const again = await runMain(["generate", "--count", "2", "--seed", seed ?? ""]);
    expect(again).toEqual({ code: 0, stdout: first.stdout, stderr: "" });
  });
});
