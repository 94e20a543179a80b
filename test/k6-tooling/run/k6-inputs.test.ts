import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect } from "vitest";
import { k6InputArgs, writeK6Inputs } from "../../../cli/load/index.ts";
import type { VuSettings } from "../../../load/index.ts";
import { LOAD_ENV, loadOptions, planScenario, vuSettings } from "../../../load/index.ts";
import { it } from "../../support/fixtures.ts";
import { runConfig } from "../../support/run-config-fixture.ts";

describe("writeK6Inputs", () => {
  it("hands k6 the options as a --config file and VUs only their settings and the credentials", async ({
    tmpDir: dir,
  }) => {
    const config = runConfig("sustained", { rate: 40, vus: 4, durationSeconds: 12 });
    const plan = planScenario(config);
    const inputs = await writeK6Inputs(config, plan, dir);
    expect(inputs.configFile).toBe(path.join(dir, "k6-options.json"));
    expect(k6InputArgs(inputs)).toEqual(["--config", inputs.configFile]);
    expect(JSON.parse(await readFile(inputs.configFile, "utf8"))).toEqual(
      JSON.parse(JSON.stringify(loadOptions(config, plan))),
    );
    expect(Object.keys(inputs.env).sort()).toEqual([LOAD_ENV.credentials, LOAD_ENV.vu].sort());
    const vu = JSON.parse(inputs.env[LOAD_ENV.vu] as string) as VuSettings;
    expect(vu).toEqual(JSON.parse(JSON.stringify(vuSettings(config, plan, path.join(dir, "summary.json")))));
    expect(vu.summaryFile).toBe(inputs.summaryFile);
    expect(JSON.parse(inputs.env[LOAD_ENV.credentials] as string)).toEqual([
      { client_id: "client", client_secret: "fixture-secret" },
    ]);
  });

  it("keeps secrets out of the options file and the VU settings", async ({ tmpDir: dir }) => {
    const config = runConfig("idle-gap", {
      expiresInSeconds: 2,
      marginSeconds: 0.2,
      durationSeconds: undefined,
    });
    const inputs = await writeK6Inputs(config, planScenario(config), dir);
    expect(await readFile(inputs.configFile, "utf8")).not.toContain("fixture-secret");
    expect(inputs.env[LOAD_ENV.vu]).not.toContain("fixture-secret");
    expect((JSON.parse(inputs.env[LOAD_ENV.vu] as string) as VuSettings).idleGap).toMatchObject({ burst: 3 });
  });

  it("names the token parameters in the VU settings and hands their values apart, as a secret", async ({
    tmpDir: dir,
  }) => {
    const config = runConfig("sustained", {
      resource: "https://api.example/",
      tokenParams: { api_key: "fixture-api-key", organization: "org_1" },
    });
    const inputs = await writeK6Inputs(config, planScenario(config), dir);
    const vu = JSON.parse(inputs.env[LOAD_ENV.vu] as string) as VuSettings;
    expect(vu).toMatchObject({
      resource: "https://api.example/",
      tokenParamNames: ["api_key", "organization"],
    });
    expect(inputs.env[LOAD_ENV.vu]).not.toContain("fixture-api-key");
    expect(await readFile(inputs.configFile, "utf8")).not.toContain("fixture-api-key");
    expect(JSON.parse(inputs.env[LOAD_ENV.tokenParams] as string)).toEqual(config.tokenParams);
  });
});
