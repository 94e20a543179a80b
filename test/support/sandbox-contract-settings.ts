import type { ContractSettings } from "../../contracts/index.ts";
import { DIRECT } from "../../contracts/index.ts";
import type { RunningSandbox } from "../../sandbox/index.ts";

/**
 * The settings the contract suite runs with against a started sandbox, named as a user names it: its first client,
 * form-field authentication, no proxy, not embedded unless `target` says so; `run` gives the profile, checks and seed.
 */
export function sandboxContractSettings(
  sandbox: RunningSandbox,
  run: Omit<ContractSettings, "target">,
  target: Partial<ContractSettings["target"]> = {},
): ContractSettings {
  const client = sandbox.clients[0];
  if (client === undefined) throw new Error("the sandbox has no client");
  return {
    target: {
      tokenUrl: sandbox.tokenUrl,
      baseUrl: sandbox.baseUrl,
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      audience: sandbox.baseUrl,
      clientAuth: "post",
      connection: DIRECT,
      timeoutMs: 5_000,
      embedded: false,
      ...target,
    },
    ...run,
  };
}
