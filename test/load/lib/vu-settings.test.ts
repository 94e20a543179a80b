import { describe, expect, it } from "vitest";
import { planScenario, vuSettings } from "../../../load/index.ts";
import { runConfig } from "../../support/run-config-fixture.ts";

const SECRET = "vu-settings-secret-41c0";

describe("vuSettings", () => {
  it("resolves what a VU needs from the run: URLs, client model, margin and timeout in milliseconds", () => {
    const config = runConfig("sustained", {
      baseUrl: "https://api.test/v2",
      tokenUrl: "https://auth.test/oauth/token",
      audience: "https://api.test/v2",
      marginSeconds: 2.5,
      timeoutSeconds: 7,
      runId: "run-9",
      dataFile: "/data/templates.json",
    });
    expect(vuSettings(config, planScenario(config), "/out/summary.json")).toEqual({
      tokenUrl: "https://auth.test/oauth/token",
      clientAuth: "post",
      eventsUrl: "https://api.test/v2/events",
      audience: "https://api.test/v2",
      runId: "run-9",
      dataFile: "/data/templates.json",
      summaryFile: "/out/summary.json",
      clientModel: "sliding",
      marginMs: 2500,
      timeoutMs: 7000,
    });
  });

  it("carries scope, resource and the token parameters' names only when given, and never a secret", () => {
    const config = runConfig("sustained", {
      scope: "events:write",
      resource: "https://api.test",
      tokenParams: { api_key: SECRET, tenant: "t-1" },
      credentials: [{ clientId: "c", clientSecret: SECRET }],
    });
    const settings = vuSettings(config, planScenario(config), "/s.json");
    expect(settings).toMatchObject({
      scope: "events:write",
      resource: "https://api.test",
      tokenParamNames: ["api_key", "tenant"],
    });
    expect(JSON.stringify(settings)).not.toContain(SECRET);
    expect(JSON.stringify(settings)).not.toContain("t-1");
  });

  it("leaves out the audience for --audience none, and what was not given", () => {
    const config = runConfig("sustained", { audience: undefined });
    const settings = vuSettings(config, planScenario(config), "/s.json");
    for (const key of ["audience", "scope", "resource", "tokenParamNames", "idleGap"]) {
      expect(Object.keys(settings), key).not.toContain(key);
    }
  });

  it("hands idle-gap's VUs their schedule", () => {
    const config = runConfig("idle-gap", { expiresInSeconds: 60, marginSeconds: 5 });
    const plan = planScenario(config);
    const settings = vuSettings(config, plan, "/s.json");
    expect(settings.idleGap).toEqual(plan.idleGap);
    expect(settings.idleGap?.midGapSeconds).toBe(42.5);
  });
});
