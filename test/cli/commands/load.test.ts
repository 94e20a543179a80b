import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect } from "../../support/fixtures.ts";
import { loadTest as it, targetOf } from "../../support/load-runs.ts";

/** `event-harness load` refusing to start: usage errors and targets it cannot test, before k6 is ever needed. */
const EXPIRES_IN = 2;

describe("load: usage errors (exit 2, before k6 starts)", () => {
  it.for([
    ["an unknown scenario", ["stampede"], "unknown scenario 'stampede'"],
    ["--rate for a closed model", ["idle-gap", "--rate", "5"], "--rate does not apply to idle-gap"],
    [
      "a malformed --threshold",
      ["sustained", "--threshold", "events_failed=mean<1"],
      "not a threshold expression",
    ],
    [
      "a --threshold on token_refreshes, no longer a metric",
      ["sustained", "--threshold", "token_refreshes=count>=0"],
      "--threshold 'token_refreshes' is no longer a metric: refreshes are the token requests of reasons idle, lifetime and rejected that got a token: name one of token_requests{reason:idle,outcome:issued}",
    ],
    ["an unknown client model", ["sustained", "--client-model", "psychic"], "--client-model takes one of"],
    ["a malformed duration", ["sustained", "--duration", "soon"], "--duration takes a duration"],
    ["an unknown sandbox fault", ["sustained", "--sandbox-fault", "gremlins"], "unknown --sandbox-fault"],
    ["a partial target", ["sustained", "--base-url", "http://127.0.0.1:9"], "an external target needs"],
    [
      "a capacity option for another scenario",
      ["sustained", "--max-rate", "100"],
      "--max-rate applies only to load capacity",
    ],
    [
      "a malformed resolution",
      ["capacity", "--resolution", "fine"],
      "--resolution takes a share of the rate held",
    ],
    ["a resolution past half", ["capacity", "--resolution", "60%"], "--resolution takes a share"],
    ["a step factor of 1", ["capacity", "--step-factor", "1"], "--step-factor takes a number from 1.1 to 10"],
    ["no steps", ["capacity", "--max-steps", "0"], "--max-steps takes a whole number from 1 to 100"],
    [
      "a malformed step duration",
      ["capacity", "--step-duration", "soon"],
      "--step-duration takes a duration",
    ],
    [
      "a file output for capacity, which every step would overwrite",
      ["capacity", "--out", "json=x.json"],
      "--out json=x.json with capacity would have every step's k6 write one file over the last",
    ],
    [
      "capacity for k6-operator, which cannot pick rates from results",
      [
        "capacity",
        "--k6-operator",
        "operator-out",
        "--auth-url",
        "http://127.0.0.1:9/auth",
        "--base-url",
        "http://127.0.0.1:9/api",
        "--client-id",
        "c",
        "--client-secret",
        "s-secret",
      ],
      "capacity picks each step's rate from the steps before it",
    ],
    [
      "a sandbox throughput limit for a target",
      [
        "capacity",
        "--sandbox-throughput",
        "50",
        "--base-url",
        "http://127.0.0.1:9/api",
        "--auth-url",
        "http://127.0.0.1:9/auth",
        "--client-id",
        "c",
        "--client-secret",
        "s-secret",
      ],
      "--sandbox-throughput apply only to the embedded sandbox",
    ],
  ] as const)("rejects %s", async ([, args, message], { loads }) => {
    const run = await loads.run(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it("rejects --credentials without a target", async ({ loads, tmpDir }) => {
    const file = path.join(tmpDir, "lonely-credentials.json");
    await writeFile(file, JSON.stringify([{ client_id: "a", client_secret: "b-secret" }]));
    const run = await loads.run(["sustained", "--credentials", file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "an external target needs --auth-url (EVENT_API_AUTH_URL) or --token-url (EVENT_API_TOKEN_URL), --base-url",
    );
  });
});

describe("load: could not run (exit 3)", () => {
  it("says so when the token endpoint is unreachable", async ({ loads, sandbox }) => {
    const gone = await sandbox();
    await gone.close();
    const run = await loads.run(["sustained", ...targetOf(gone).args], targetOf(gone).env);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(
      /^event-harness: cannot reach the token endpoint http:\/\/127\.0\.0\.1:(\d+)\/.*oauth\/token \(127\.0\.0\.1:\1: connection refused\)$/m,
    );
  });

  it("says so when the credentials are refused", async ({ loads, sandbox }) => {
    const sb = await sandbox({ expiresIn: EXPIRES_IN, clients: [loads.client("main")] });
    const { args } = targetOf(sb);
    const run = await loads.run(["sustained", ...args], { EVENT_API_CLIENT_SECRET: "not-the-secret" });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      "event-harness: the credentials for client load-test-main were refused (401 with --client-auth post, 401 with basic): check the client id and secret, or whether the secret was rotated\n",
    );
  });
});
