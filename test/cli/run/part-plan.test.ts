import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Command } from "../../../cli/command.ts";
import { parseCommandArgs } from "../../../cli/command.ts";
import { contractCommand } from "../../../cli/commands/contract.ts";
import { loadCommand } from "../../../cli/commands/load.ts";
import { verifyRotationCommand } from "../../../cli/commands/verify-rotation.ts";
import { planParts, reproduceCommand } from "../../../cli/run/part-plan.ts";
import type { RunSettings } from "../../../cli/run/run-settings.ts";
import { DIRECT } from "../../../transport/connection/index.ts";
import type { Target } from "../../../transport/index.ts";
import { Secret } from "../../../transport/index.ts";

const COMMANDS: Record<string, Command> = {
  contract: contractCommand as Command,
  load: loadCommand as Command,
  "verify-rotation": verifyRotationCommand as Command,
};

const settings: RunSettings = {
  started: new Date(0),
  runId: "r",
  runDir: path.resolve("-odd", "run"),
  external: undefined,
  parts: ["contract", "load", "rotation"],
  profile: "fast",
  scenarios: [{ name: "sustained", duration: "3s" }, { name: "idle-gap" }],
  loadPart: { rate: 5 },
  expectOld: undefined,
  expectOldTokens: undefined,
  faults: ["events-5xx", "expiry-fixed"],
  sandboxLatency: undefined,
  baselines: {},
  failOn: undefined,
  accepted: undefined,
};

/** The argv after `npx --no-install event-harness` in the command shown to reproduce a part, split as the shell would. */
function shownArgv(command: string): string[] {
  return command
    .replace(/^npx --no-install event-harness /, "")
    .split(" ")
    .map((word) => word.replace(/^'(.*)'$/, "$1"));
}

describe("planParts", () => {
  it("gives each pipeline the options its command parses from the command line shown to reproduce it", () => {
    const plans = planParts(settings);
    expect(plans.map((plan) => plan.id)).toEqual(["rotation", "contract", "load-sustained", "load-idle-gap"]);
    for (const plan of plans) {
      const [name = "", ...argv] = shownArgv(reproduceCommand(plan, undefined));
      expect(name).toBe(plan.command);
      const command = COMMANDS[name];
      if (command === undefined) throw new Error(`no command ${name}`);
      const parsed = parseCommandArgs(command, argv);
      // All but the run's own report directory, which a rerun must leave alone: it writes a fresh one.
      const { "report-dir": runDir, ...rest } = plan.options;
      expect(path.resolve(String(runDir)), plan.id).toBe(path.join(settings.runDir, plan.id));
      expect(parsed.options, plan.id).toEqual(rest);
      expect(parsed.positionals, plan.id).toEqual(plan.kind === "load" ? [plan.scenario] : []);
    }
  });

  it("hands --threshold to every load part, and runs a capacity part without the per-second CSV (it charts its steps)", () => {
    const plans = planParts({
      ...settings,
      scenarios: [
        { name: "capacity", duration: "4m" },
        { name: "sustained", duration: "3s" },
      ],
      thresholds: ["http_req_duration{endpoint:events}=p(95)<300", "events_failed=rate<0.05"],
    });
    const loads = plans.flatMap((plan) => (plan.kind === "load" ? [plan] : []));
    for (const plan of loads) {
      expect(plan.options.threshold).toEqual([
        "http_req_duration{endpoint:events}=p(95)<300",
        "events_failed=rate<0.05",
      ]);
      const [, ...argv] = shownArgv(reproduceCommand(plan, undefined));
      // The line leaves out only the run's own report directory, so a rerun writes beside it.
      const { "report-dir": _runDir, ...shown } = plan.options;
      expect(parseCommandArgs(loadCommand as Command, argv).options).toEqual(shown);
    }
    expect(loads.map((plan) => [plan.scenario, plan.options.rate, plan.internal.out])).toEqual([
      ["capacity", "5", undefined],
      ["sustained", "5", [expect.stringMatching(/^csv=fileName=.*metrics\.csv\.gz,timeFormat=unix_milli$/)]],
    ]);
    for (const plan of plans.filter((p) => p.kind !== "load"))
      expect(reproduceCommand(plan, undefined)).not.toContain("--threshold");
  });

  it("hands --sandbox-latency to the load parts only: the contract suite has no latency to judge", () => {
    const plans = planParts({ ...settings, sandboxLatency: "30" });
    for (const plan of plans) {
      const shown = reproduceCommand(plan, undefined);
      if (plan.kind === "load") expect(shown).toContain("--sandbox-latency 30");
      else expect(shown).not.toContain("--sandbox-latency");
    }
    const without = planParts(settings).map((plan) => reproduceCommand(plan, undefined));
    for (const shown of without) expect(shown).not.toContain("--sandbox-latency");
  });

  it("repeats a given --client-auth, even post, so the part run by hand judges the same binding method", () => {
    const target: Target = {
      tokenUrl: "https://sso.example.com/token",
      baseUrl: "https://api.example.com",
      clientId: "c",
      clientSecret: new Secret("s"),
      audience: "https://api.example.com",
      clientAuth: "post",
      timeoutMs: 10_000,
      connection: DIRECT,
      embedded: false,
    };
    const [plan] = planParts({ ...settings, parts: ["contract"] });
    if (plan === undefined) throw new Error("no contract part");
    expect(reproduceCommand(plan, target)).not.toContain("--client-auth");
    expect(reproduceCommand(plan, { ...target, clientAuthGiven: true })).toMatch(/ --client-auth post( |$)/);
    expect(reproduceCommand(plan, { ...target, clientAuth: "basic" })).toMatch(/ --client-auth basic( |$)/);
  });
});
