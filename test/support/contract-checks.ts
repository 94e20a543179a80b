import type { CheckDefinition, CheckResult, Target } from "../../contracts/index.ts";
import { DIRECT, executeCheck, Probe, Secret, targetRedactor } from "../../contracts/index.ts";
import type { ProbeOptions } from "../../contracts/probe/probe.ts";
import { createEventGenerator, INVALID_VARIANTS } from "../../generators/index.ts";
import type { RunningSandbox } from "../../sandbox/index.ts";

// One check run against a started sandbox, the way the suite runs it: the contract checks' unit tests share it.

/** The target a user would name for `sandbox`: its first client, form-field authentication, no proxy. */
export function sandboxTarget(sandbox: RunningSandbox, overrides: Partial<Target> = {}): Target {
  const client = sandbox.clients[0];
  if (client === undefined) throw new Error("the sandbox has no client");
  return {
    tokenUrl: sandbox.tokenUrl,
    baseUrl: sandbox.baseUrl,
    audience: sandbox.baseUrl,
    clientId: client.clientId,
    clientSecret: new Secret(client.clientSecret),
    clientAuth: "post",
    connection: DIRECT,
    timeoutMs: 5_000,
    embedded: false,
    ...overrides,
  };
}

/** Probes made so far: each draws its events under a run id of its own, so two never repeat a reference. */
let probesMade = 0;

/** A probe of `sandbox` with the run's redactor, sending seeded valid events and the generators' invalid variants. */
export function sandboxProbe(
  sandbox: RunningSandbox,
  target: Partial<Target> = {},
  options: Partial<ProbeOptions> = {},
): Probe {
  probesMade += 1;
  const events = createEventGenerator({
    seed: 11,
    runId: `checks-${probesMade}`,
    referencePrefix: "eah-checks-",
  });
  const named = sandboxTarget(sandbox, target);
  return new Probe({
    target: named,
    redactor: targetRedactor(named),
    nextEvent: () => events.next(),
    eventBreakers: INVALID_VARIANTS,
    ...options,
  });
}

/** Runs `check` once against `sandbox`; the result carries the probe's evidence. */
export function runCheckOn(
  check: CheckDefinition,
  sandbox: RunningSandbox,
  target: Partial<Target> = {},
  options: Partial<ProbeOptions> = {},
): Promise<CheckResult> {
  return executeCheck(check, sandboxProbe(sandbox, target, options));
}
