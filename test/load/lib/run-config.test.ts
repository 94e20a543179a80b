import { describe, expect, it } from "vitest";
import { loadOptions } from "../../../cli/options/load-options.ts";
import { EnvError } from "../../../core/index.ts";
import { CLIENT_MODELS, LOAD_ENV, readRunConfig, SCENARIOS } from "../../../load/index.ts";

const SECRET = "s3cr3t-value-never-echoed";

const baseEnv = {
  [LOAD_ENV.tokenUrl]: "http://127.0.0.1:9/auth/oauth/token",
  [LOAD_ENV.baseUrl]: "http://127.0.0.1:9/api/",
  [LOAD_ENV.credentials]: JSON.stringify([{ client_id: "a", client_secret: SECRET }]),
  [LOAD_ENV.runId]: "run-1",
  [LOAD_ENV.dataFile]: "/tmp/data.json",
};

describe("readRunConfig", () => {
  it("reads the resource and the further token form fields, and refuses anything but an object of strings", () => {
    const tokenParams = { organization: "org_1", api_key: "k-1" };
    const config = readRunConfig(
      {
        ...baseEnv,
        [LOAD_ENV.resource]: "https://api.example.com",
        [LOAD_ENV.tokenParams]: JSON.stringify(tokenParams),
      },
      "sustained",
    );
    expect(config.resource).toBe("https://api.example.com");
    expect(config.tokenParams).toEqual(tokenParams);
    expect(readRunConfig(baseEnv, "sustained").tokenParams).toEqual({});
    expect(readRunConfig(baseEnv, "sustained").resource).toBeUndefined();
    expect(() =>
      readRunConfig({ ...baseEnv, [LOAD_ENV.tokenParams]: '{"resource":1}' }, "sustained"),
    ).toThrow(EnvError);
  });

  it("fills the scenario's defaults and derives the margin from expires_in", () => {
    const config = readRunConfig({ ...baseEnv, [LOAD_ENV.expiresInSeconds]: "2" }, "sustained");
    expect(config).toMatchObject({
      tokenUrl: "http://127.0.0.1:9/auth/oauth/token",
      clientAuth: "post",
      scope: undefined,
      insecure: false,
      baseUrl: "http://127.0.0.1:9/api",
      audience: "http://127.0.0.1:9/api",
      rate: SCENARIOS.sustained.defaults.rate,
      durationSeconds: SCENARIOS.sustained.defaults.durationSeconds,
      vus: SCENARIOS.sustained.defaults.vus,
      clientModel: "sliding",
      marginSeconds: 0.2,
      thresholdOverrides: {},
    });
    expect(config.credentials).toEqual([{ clientId: "a", clientSecret: SECRET }]);
    expect(readRunConfig(baseEnv, "token-storm").clientModel).toBe("token-per-iteration");
  });

  it("gives every instance a VU: a default VU count grows to --instances, an explicit smaller one is refused", () => {
    expect(readRunConfig(baseEnv, "idle-gap")).toMatchObject({ vus: 2, instances: 1 });
    expect(readRunConfig({ ...baseEnv, [LOAD_ENV.instances]: "3" }, "idle-gap")).toMatchObject({
      vus: 3,
      instances: 3,
    });
    expect(() =>
      readRunConfig({ ...baseEnv, [LOAD_ENV.instances]: "3", [LOAD_ENV.vus]: "2" }, "idle-gap"),
    ).toThrow(/2 VUs cannot be split over 3 instances/);
    expect(() => readRunConfig({ ...baseEnv, [LOAD_ENV.instances]: "0" }, "sustained")).toThrow(EnvError);
  });

  it("takes as many instances as --instances does, and no more", () => {
    const most = loadOptions.instances.range.max;
    const vus = String(most + 1);
    expect(
      readRunConfig({ ...baseEnv, [LOAD_ENV.instances]: String(most), [LOAD_ENV.vus]: vus }, "sustained"),
    ).toMatchObject({ instances: most });
    expect(() =>
      readRunConfig({ ...baseEnv, [LOAD_ENV.instances]: String(most + 1), [LOAD_ENV.vus]: vus }, "sustained"),
    ).toThrow(EnvError);
  });

  it("reads every override", () => {
    const config = readRunConfig(
      {
        ...baseEnv,
        [LOAD_ENV.rate]: "7.5",
        [LOAD_ENV.durationSeconds]: "12",
        [LOAD_ENV.vus]: "3",
        [LOAD_ENV.clientModel]: "refresh-on-401",
        [LOAD_ENV.expiresMarginSeconds]: "1.5",
        [LOAD_ENV.thresholds]: JSON.stringify({ events_failed: ["rate<0.5"] }),
      },
      "ramp",
    );
    expect(config).toMatchObject({
      rate: 7.5,
      durationSeconds: 12,
      vus: 3,
      clientModel: "refresh-on-401",
      marginSeconds: 1.5,
      thresholdOverrides: { events_failed: ["rate<0.5"] },
    });
  });

  it.each([
    ["a missing base URL", { [LOAD_ENV.baseUrl]: "" }, LOAD_ENV.baseUrl],
    ["a bad VU count", { [LOAD_ENV.vus]: "1.5" }, LOAD_ENV.vus],
    ["an unknown client model", { [LOAD_ENV.clientModel]: "psychic" }, CLIENT_MODELS.join(", ")],
    ["empty credentials", { [LOAD_ENV.credentials]: "[]" }, LOAD_ENV.credentials],
    ["a credential without a secret", { [LOAD_ENV.credentials]: '[{"client_id":"a"}]' }, "client_secret"],
  ])("names the variable at fault for %s", (_label, patch, mention) => {
    expect(() => readRunConfig({ ...baseEnv, ...patch }, "sustained")).toThrow(EnvError);
    expect(() => readRunConfig({ ...baseEnv, ...patch }, "sustained")).toThrow(mention);
  });

  it("never echoes malformed credentials, which may hold a secret", () => {
    const env = { ...baseEnv, [LOAD_ENV.credentials]: `[{"client_id":"a","client_secret":"${SECRET}"` };
    expect(() => readRunConfig(env, "sustained")).toThrow(`${LOAD_ENV.credentials} is not valid JSON`);
    try {
      readRunConfig(env, "sustained");
    } catch (error) {
      expect(String(error)).not.toContain(SECRET);
    }
  });
});
