import type { CheckResult, FuzzSettings, Target } from "../../contracts/index.ts";
import { ALL_CHECKS, DIRECT, executeCheck, Probe, Redactor, Secret } from "../../contracts/index.ts";
import { createEventGenerator, createInputSpace, INVALID_VARIANTS } from "../../generators/index.ts";
import type { RunningSandbox } from "../../sandbox/index.ts";

/** The sandbox's demo client as a contract target, the secret registered with the redactor as the suite does. */
export function sandboxTarget(sandbox: RunningSandbox, clientAuth: Target["clientAuth"] = "post"): Target {
  const client = sandbox.clients[0];
  if (client === undefined) throw new Error("the sandbox has no client");
  return {
    tokenUrl: sandbox.tokenUrl,
    baseUrl: sandbox.baseUrl,
    clientId: client.clientId,
    clientSecret: new Secret(client.clientSecret),
    audience: sandbox.baseUrl,
    clientAuth,
    connection: DIRECT,
    timeoutMs: 5_000,
    embedded: true,
  };
}

let calls = 0;

/**
 * Runs one property-based check the way the suite wires it (the generators' input space, the run's seed), in
 * process and without vitest in between: fast enough to run every fault.
 */
export async function runPropertyCheck(
  id: string,
  target: Target,
  settings: Partial<FuzzSettings> = {},
): Promise<CheckResult> {
  const check = ALL_CHECKS.find((candidate) => candidate.id === id);
  if (check === undefined) throw new Error(`no check ${id}`);
  const secret = target.clientSecret.reveal();
  // The premise events get references of their own per call: several runs may share one sandbox.
  calls += 1;
  const events = createEventGenerator({
    seed: 7,
    runId: `property-${calls}`,
    referencePrefix: "eah-property-",
  });
  const probe = new Probe({
    target,
    redactor: new Redactor().add(secret, "<CLIENT_SECRET>").addBasic(target.clientId, secret),
    nextEvent: () => events.next(),
    eventBreakers: INVALID_VARIANTS,
    inputSpace: createInputSpace(target.channelId === undefined ? {} : { channels: [target.channelId] }),
    fuzz: {
      seed: 7,
      runs: 200,
      timeLimitMs: 30_000,
      shrinkLimitMs: 30_000,
      runId: `t${Date.now().toString(36)}`,
      ...settings,
    },
  });
  return executeCheck(check, probe);
}
