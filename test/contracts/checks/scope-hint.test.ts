import { runContract } from "../../../cli/contract/run-contract.ts";
import type { CheckResult } from "../../../contracts/index.ts";
import { DIRECT } from "../../../contracts/index.ts";
import { describe, expect } from "../../support/fixtures.ts";
import type { HydraLikeServer } from "../../support/hydra-like-server.ts";
import { hydraTest as it } from "../../support/hydra-like-server.ts";

async function tokenScope(target: {
  tokenUrl: string;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  clientAuth: "post" | "basic";
  scope?: string;
}): Promise<CheckResult | undefined> {
  const [result] = await runContract({
    target: {
      ...target,
      audience: target.baseUrl,
      connection: DIRECT,
      timeoutMs: 5_000,
      embedded: false,
    },
    profile: "fast",
    only: ["token.scope"],
    seed: 5,
    runId: "scope-hint",
  });
  return result;
}

const hydraTarget = (hydra: HydraLikeServer) => ({
  tokenUrl: hydra.tokenUrl,
  baseUrl: "https://api.example.com",
  clientId: hydra.clientId,
  clientSecret: hydra.clientSecret,
  clientAuth: "basic" as const,
});

describe("token.scope against a server that grants only what was asked for", () => {
  it("suggests --scope with the spec's scopes when none was asked for", async ({ hydra }) => {
    const result = await tokenScope(hydraTarget(hydra));
    expect(result?.status).toBe("WARN");
    expect(result?.message).toBe(
      'expected scope to be a string, received undefined; the server granted only what was asked for (no --scope was given): ask for them with --scope "profile email"',
    );
  }, 30_000);

  it("suggests adding the missing ones to the --scope given", async ({ hydra }) => {
    const result = await tokenScope({ ...hydraTarget(hydra), scope: "openid" });
    expect(result?.status).toBe("WARN");
    expect(result?.message).toBe(
      'expected scopes profile, email, "openid" lacks profile, email; the server granted only what was asked for (--scope "openid"): ask for them with --scope "openid profile email"',
    );
  }, 30_000);

  it("suggests nothing when the server granted something else than was asked", async ({ sandbox: start }) => {
    const sandbox = await start(["token-narrow-scope"]);
    const client = sandbox.clients[0];
    if (client === undefined) throw new Error("no client");
    const { tokenUrl, baseUrl } = sandbox;
    const result = await tokenScope({ tokenUrl, baseUrl, ...client, clientAuth: "post" });
    expect(result?.status).toBe("WARN");
    expect(result?.message).toBe('expected scopes profile, email, "openid" lacks profile, email');
  }, 30_000);
});
