import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { PassThrough } from "node:stream";
import type { RunOptionValues } from "../../../cli/options/run-options.ts";
import { readSettings } from "../../../cli/run/run-settings.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { usageRefusal } from "../../support/usage-refusal.ts";

const io = { signal: new AbortController().signal, stderr: new PassThrough() };

/** A named target as a user sets it in the environment; nothing is sent to it while settings are read. */
const TARGET_ENV = {
  EVENT_API_AUTH_URL: "http://127.0.0.1:9/auth",
  EVENT_API_BASE_URL: "http://127.0.0.1:9/api",
  EVENT_API_CLIENT_ID: "ci-client",
  EVENT_API_CLIENT_SECRET: "run-settings-secret-4d1f",
};

function inDir(dir: string, options: RunOptionValues): RunOptionValues {
  return { "report-dir": path.join(dir, "report"), ...options };
}

describe("readSettings against the embedded sandbox", () => {
  it("runs every part with the full profile and the short default scenarios", async ({ tmpDir }) => {
    const settings = await readSettings(inDir(tmpDir, {}), {}, io);
    expect(settings.external).toBeUndefined();
    expect(settings.parts).toEqual(["contract", "load", "rotation"]);
    expect(settings.profile).toBe("full");
    expect(settings.scenarios).toEqual([{ name: "sustained", duration: "10s" }, { name: "idle-gap" }]);
    expect(settings.runDir).toBe(path.join(tmpDir, "report"));
    expect(settings.runId).toMatch(/^\d{8}T\d{6}Z-[0-9a-f]{4}$/);
    expect(settings.faults).toEqual([]);
    expect(settings.baselines).toEqual({});
    expect(settings.accepted).toBeUndefined();
    expect(settings.partEnv).toEqual({});
  });

  it("puts the parts in their fixed order whatever order they are named in, and reads scenarios with durations", async ({
    tmpDir,
  }) => {
    const settings = await readSettings(
      inDir(tmpDir, { parts: " rotation, load ", scenario: ["spike=90s, idle-gap", "ramp"] }),
      {},
      io,
    );
    expect(settings.parts).toEqual(["load", "rotation"]);
    expect(settings.scenarios).toEqual([
      { name: "spike", duration: "90s" },
      { name: "idle-gap" },
      { name: "ramp" },
    ]);
  });

  it("refuses an unknown part with the closest name, and an empty list", async ({ tmpDir }) => {
    const unknown = await usageRefusal(readSettings(inDir(tmpDir, { parts: "contract,lod" }), {}, io));
    expect(unknown.code).toBe("invalid-value");
    expect(unknown.message).toBe(
      "--parts takes a comma-separated list of contract, load, rotation, got 'contract,lod'; did you mean 'load'?",
    );
    const empty = await usageRefusal(readSettings(inDir(tmpDir, { parts: " , " }), {}, io));
    expect(empty.message).toBe("--parts takes a comma-separated list of contract, load, rotation, got ' , '");
  });

  it("refuses an unknown scenario, a duration that is none and a scenario named twice", async ({
    tmpDir,
  }) => {
    const unknown = await usageRefusal(readSettings(inDir(tmpDir, { scenario: ["sustaned=5s"] }), {}, io));
    expect(unknown.message).toMatch(
      /^--scenario takes NAME\[=DURATION\] with NAME one of .*got 'sustaned=5s'; did you mean 'sustained'\?$/,
    );
    const duration = await usageRefusal(readSettings(inDir(tmpDir, { scenario: ["soak=0s"] }), {}, io));
    expect(duration.message).toBe("--scenario soak=0s: a duration is k6-style (90s, 5m, 1h30m) or seconds");
    const twice = await usageRefusal(readSettings(inDir(tmpDir, { scenario: ["soak=5s,soak=9s"] }), {}, io));
    expect(twice.message).toBe("--scenario soak is given twice");
  });

  it("names every flag that needs a part not run, in one refusal", async ({ tmpDir }) => {
    const error = await usageRefusal(
      readSettings(
        inDir(tmpDir, {
          parts: "rotation",
          profile: "fast",
          scenario: ["soak"],
          threshold: ["http_req_duration=p(95)<300"],
        }),
        {},
        io,
      ),
    );
    expect(error.code).toBe("invalid-config");
    expect(error.message).toBe(
      "--profile needs the contract part; --scenario and --rate need the load part; --threshold needs the load part",
    );
  });

  it("lets a config file's profile and scenarios serve the parts that use them", async ({ tmpDir }) => {
    const settings = await readSettings(
      inDir(tmpDir, { parts: "rotation", profile: "fast", scenario: ["soak"] }),
      {},
      { ...io, configFilled: ["profile", "scenario"] },
    );
    expect(settings.parts).toEqual(["rotation"]);
    expect(settings.profile).toBe("fast");
  });

  it("refuses the old-secret expectations, which only a target takes", async ({ tmpDir }) => {
    const error = await usageRefusal(readSettings(inDir(tmpDir, { "expect-old": "accepted" }), {}, io));
    expect(error.message).toMatch(/^--expect-old and --expect-old-tokens apply to a target /);
  });

  it("refuses a threshold k6 would not take, before anything runs", async ({ tmpDir }) => {
    const error = await usageRefusal(readSettings(inDir(tmpDir, { threshold: ["p95 fast please"] }), {}, io));
    expect(error.code).toBe("invalid-value");
    expect(error.message).toMatch(/^--threshold /);
  });

  it("refuses --sandbox-latency without a load part and past its bound", async ({ tmpDir }) => {
    const noLoad = await usageRefusal(
      readSettings(inDir(tmpDir, { parts: "contract", "sandbox-latency": "5" }), {}, io),
    );
    expect(noLoad.message).toBe("--sandbox-latency needs the load part");
    await usageRefusal(readSettings(inDir(tmpDir, { "sandbox-latency": "-1" }), {}, io));
    const within = await readSettings(inDir(tmpDir, { parts: "load", "sandbox-latency": "5" }), {}, io);
    expect(within.sandboxLatency).toBe("5");
  });

  it("refuses --fail-on and --allow-latency-change without a baseline", async ({ tmpDir }) => {
    const error = await usageRefusal(
      readSettings(
        inDir(tmpDir, { parts: "load", "fail-on": "regressed", "allow-latency-change": true }),
        {},
        io,
      ),
    );
    expect(error.message).toBe("--fail-on needs --baseline; --allow-latency-change needs --baseline");
  });
});

describe("readSettings with a report directory", () => {
  it("takes a missing or empty directory, and refuses one with something in it or a file", async ({
    tmpDir,
  }) => {
    const empty = path.join(tmpDir, "empty");
    await mkdir(empty);
    expect((await readSettings({ "report-dir": empty }, {}, io)).runDir).toBe(empty);
    await writeFile(path.join(empty, "run.json"), "{}");
    const used = await usageRefusal(readSettings({ "report-dir": empty }, {}, io));
    expect(used.code).toBe("invalid-config");
    expect(used.message).toMatch(/^--report-dir .*empty exists and is not empty: give a new directory/);
    const file = path.join(tmpDir, "file");
    await writeFile(file, "");
    await usageRefusal(readSettings({ "report-dir": file }, {}, io));
  });
});

describe("readSettings against a named target", () => {
  it("runs only the contract part unless asked, and hands the target to the parts as environment variables", async ({
    tmpDir,
  }) => {
    const settings = await readSettings(
      inDir(tmpDir, { "client-id": "flag-client", "run-timeout": "600" }),
      TARGET_ENV,
      io,
    );
    expect(settings.parts).toEqual(["contract"]);
    expect(settings.external?.clientId).toBe("flag-client");
    expect(settings.external?.tokenUrl).toBe("http://127.0.0.1:9/auth/oauth/token");
    expect(settings.partEnv).toMatchObject({ ...TARGET_ENV, EVENT_API_CLIENT_ID: "flag-client" });
    expect(Object.values(settings.partEnv)).toContain("600");
  });

  it("refuses the embedded sandbox's switches", async ({ tmpDir }) => {
    const error = await usageRefusal(
      readSettings(inDir(tmpDir, { "sandbox-fault": ["slow"], parts: "contract" }), TARGET_ENV, io),
    );
    expect(error.message).toBe("--sandbox-fault applies only to the embedded sandbox");
  });

  it("refuses an expectation without the old secret it needs, and the old secret given as the new one", async ({
    tmpDir,
  }) => {
    const missing = await usageRefusal(
      readSettings(inDir(tmpDir, { parts: "rotation", "expect-old": "refused" }), TARGET_ENV, io),
    );
    expect(missing.code).toBe("missing-argument");
    expect(missing.message).toBe(
      "--expect-old refused needs the secret from before the rotation (EVENT_API_OLD_CLIENT_SECRET)",
    );
    const same = await usageRefusal(
      readSettings(
        inDir(tmpDir, { parts: "rotation" }),
        { ...TARGET_ENV, EVENT_API_OLD_CLIENT_SECRET: ` ${TARGET_ENV.EVENT_API_CLIENT_SECRET} ` },
        io,
      ),
    );
    expect(same.code).toBe("invalid-config");
    // The expectation needs the rotation part, and the rotation part is what it was asked for.
    await usageRefusal(
      readSettings(inDir(tmpDir, { parts: "contract", "expect-old": "refused" }), TARGET_ENV, io),
    ).then((error) =>
      expect(error.message).toBe("--expect-old and --expect-old-tokens need the rotation part"),
    );
  });
});
