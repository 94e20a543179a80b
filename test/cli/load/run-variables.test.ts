import { describe, expect, it } from "vitest";
import { readLoadSettings } from "../../../cli/load/index.ts";
import { runVariables } from "../../../cli/load/run-variables.ts";
import { readRunConfig } from "../../../load/index.ts";
import { DIRECT } from "../../../transport/connection/index.ts";
import type { Target } from "../../../transport/index.ts";
import { Secret } from "../../../transport/index.ts";

const target: Target = {
  tokenUrl: "https://sso.example.com/oauth/token",
  baseUrl: "https://api.example.com/v1",
  clientId: "c",
  clientSecret: new Secret("target-secret"),
  audience: "https://api.example.com/v1",
  clientAuth: "basic",
  timeoutMs: 2500,
  connection: DIRECT,
  embedded: false,
};

const credentials = [
  { clientId: "one", clientSecret: "first-secret" },
  { clientId: "two", clientSecret: "second-secret" },
];

function variables(overrides: Partial<Parameters<typeof runVariables>[0]> = {}): Record<string, string> {
  return runVariables({
    settings: readLoadSettings("sustained", {}),
    target,
    credentials,
    runId: "run-7",
    dataFile: "/tmp/templates.json",
    expiresInSeconds: 120,
    ...overrides,
  });
}

describe("runVariables", () => {
  it("names the target, its clients and the run as the load script reads them back", () => {
    const config = readRunConfig(variables(), "sustained");
    expect(config).toMatchObject({
      tokenUrl: "https://sso.example.com/oauth/token",
      baseUrl: "https://api.example.com/v1",
      audience: "https://api.example.com/v1",
      clientAuth: "basic",
      insecure: false,
      targetLabel: "https://api.example.com/v1",
      credentials,
      runId: "run-7",
      dataFile: "/tmp/templates.json",
      timeoutSeconds: 2.5,
      expiresInSeconds: 120,
      // A tenth of expires_in, 12 s, when --expires-margin is not given.
      marginSeconds: 12,
      instances: 1,
      thresholdOverrides: {},
      scope: undefined,
      resource: undefined,
      tokenParams: {},
    });
  });

  it("passes every setting given, and the target's optional fields", () => {
    const settings = readLoadSettings("sustained", {
      rate: "7.5",
      duration: "45s",
      vus: "4",
      instances: "2",
      "client-model": "refresh-on-401",
      "expires-margin": "3",
      threshold: ["events_failed=rate<0.05"],
    });
    const env = variables({
      settings,
      target: {
        ...target,
        scope: "events:write",
        resource: "https://api.example.com/",
        tokenParams: { tenant: "eu" },
        connection: { ...DIRECT, insecure: true },
      },
    });
    expect(readRunConfig(env, "sustained")).toMatchObject({
      rate: 7.5,
      durationSeconds: 45,
      vus: 4,
      instances: 2,
      clientModel: "refresh-on-401",
      marginSeconds: 3,
      thresholdOverrides: { events_failed: ["rate<0.05"] },
      scope: "events:write",
      resource: "https://api.example.com/",
      tokenParams: { tenant: "eu" },
      insecure: true,
    });
  });

  it("sets the margin from the expires_in the harness saw: a tenth of it, 30 s at most", () => {
    expect(variables({ expiresInSeconds: 120 }).EH_EXPIRES_MARGIN_S).toBe("12");
    expect(variables({ expiresInSeconds: 3600 }).EH_EXPIRES_MARGIN_S).toBe("30");
  });

  it("leaves out what was not given, so the script takes its own defaults", () => {
    const env = variables({ expiresInSeconds: undefined, target: { ...target, tokenParams: {} } });
    for (const name of [
      "EH_RATE",
      "EH_DURATION_S",
      "EH_VUS",
      "EH_INSTANCES",
      "EH_CLIENT_MODEL",
      "EH_EXPIRES_IN_S",
      "EH_EXPIRES_MARGIN_S",
      "EH_SCOPE",
      "EH_RESOURCE",
      "EH_TOKEN_PARAMS",
    ]) {
      expect(env, name).not.toHaveProperty(name);
    }
    expect(readRunConfig(env, "sustained").expiresInSeconds).toBeUndefined();
  });

  it("says when the audience is not sent", () => {
    const { audience: _, ...withoutAudience } = target;
    expect(readRunConfig(variables({ target: withoutAudience }), "sustained").audience).toBeUndefined();
  });

  it("labels the target without its userinfo, the embedded sandbox as such", () => {
    const withUser = { ...target, baseUrl: "https://user:pass-word@api.example.com/v1/" };
    const label = variables({ target: withUser }).EH_TARGET_LABEL;
    expect(label).toBe("https://api.example.com/v1");
    expect(variables({ target: { ...target, embedded: true } }).EH_TARGET_LABEL).toBe(
      "https://api.example.com/v1 (embedded sandbox — not your API)",
    );
  });

  it("names a token endpoint on another origin than its issuer", () => {
    const label = variables({
      target: { ...target, issuer: "https://login.example.org/tenant" },
    }).EH_TARGET_LABEL;
    expect(label).toBe(
      "https://api.example.com/v1 (token endpoint https://sso.example.com/oauth/token on https://sso.example.com, another origin than the issuer https://login.example.org/tenant)",
    );
    const sameOrigin = variables({ target: { ...target, issuer: "https://sso.example.com" } });
    expect(sameOrigin.EH_TARGET_LABEL).toBe("https://api.example.com/v1");
  });
});
