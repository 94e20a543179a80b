import { describe, expect, it } from "vitest";
import { renderHelp } from "../../../cli/command.ts";
import { loadCommand } from "../../../cli/commands/load.ts";
import { readLoadSettings } from "../../../cli/load/index.ts";
import { EMBEDDED_EXPIRES_IN } from "../../../cli/options/target-options.ts";
import { UsageError } from "../../../core/index.ts";

describe("readLoadSettings", () => {
  it("leaves what was not given to the scenario's defaults", () => {
    const settings = readLoadSettings("sustained", {});
    expect(settings).toMatchObject({
      scenario: "sustained",
      rate: undefined,
      durationSeconds: undefined,
      vus: undefined,
      clientModel: undefined,
      marginSeconds: undefined,
      thresholds: {},
      outs: [],
      sandboxExpiresIn: EMBEDDED_EXPIRES_IN,
    });
    expect(settings.seed).toBeGreaterThanOrEqual(0);
  });

  it("reads --instances, and refuses a file output all instances would write at once", () => {
    expect(readLoadSettings("sustained", {}).instances).toBe(1);
    expect(readLoadSettings("sustained", { instances: "3" }).instances).toBe(3);
    expect(() => readLoadSettings("sustained", { instances: "0" })).toThrow(UsageError);
    expect(() => readLoadSettings("sustained", { instances: "2", out: ["json=m.json"] })).toThrow(
      /would have 2 k6 processes write one file/,
    );
    expect(
      readLoadSettings("sustained", { instances: "2", out: ["experimental-prometheus-rw"] }).outs,
    ).toEqual(["experimental-prometheus-rw"]);
  });

  it("reads every option, grouping thresholds by metric", () => {
    const settings = readLoadSettings("ramp", {
      rate: "7.5",
      duration: "1m30s",
      vus: "3",
      "client-model": "refresh-on-401",
      "expires-margin": "1.5",
      threshold: [
        "events_failed=rate<0.05",
        "http_req_duration{endpoint:events}=p(95)<300",
        "events_failed=rate<0.1",
      ],
      out: ["json=out.json"],
      seed: "42",
      events: "wide",
      "sandbox-expires-in": "9",
    });
    expect(settings).toEqual({
      scenario: "ramp",
      rate: 7.5,
      durationSeconds: 90,
      vus: 3,
      instances: 1,
      clientModel: "refresh-on-401",
      marginSeconds: 1.5,
      sandboxLatencyMs: 0,
      thresholds: {
        events_failed: ["rate<0.05", "rate<0.1"],
        "http_req_duration{endpoint:events}": ["p(95)<300"],
      },
      outs: ["json=out.json"],
      seed: 42,
      events: "wide",
      sandboxExpiresIn: 9,
    });
  });

  it.each([
    ["idle-gap", { rate: "5" }, "--rate does not apply to idle-gap"],
    ["sustained", { duration: "0.5" }, "--duration takes a duration from 1s to 168h"],
    ["sustained", { duration: "200h" }, "--duration takes a duration from 1s to 168h"],
    ["sustained", { vus: "0" }, "--vus takes a whole number"],
    ["sustained", { events: "odd" }, "--events takes one of plain, wide"],
    ["sustained", { threshold: ["events_failed"] }, "--threshold expected NAME=EXPR"],
    ["sustained", { "sandbox-expires-in": "0" }, "--sandbox-expires-in takes a whole number"],
  ] as const)("rejects %s with %o", (scenario, options, message) => {
    expect(() => readLoadSettings(scenario, options)).toThrow(UsageError);
    expect(() => readLoadSettings(scenario, options)).toThrow(message);
  });

  it("matches the default the command's help states", () => {
    expect(renderHelp(loadCommand)).toContain(`embedded sandbox (default ${EMBEDDED_EXPIRES_IN},`);
  });
});
