import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "../../support/fixtures.ts";
import { runCliInProcess } from "../../support/run-in-process.ts";

const TARGET = [
  "--token-url",
  "http://127.0.0.1:9/token",
  "--base-url",
  "http://127.0.0.1:9",
  "--client-id",
  "shop",
];
const ENV = { EVENT_API_CLIENT_SECRET: "token-param-secret" };

describe("--token-param", () => {
  it.each([
    ["grant_type", "the harness sends grant_type=client_credentials itself"],
    ["client_id", "use --client-id"],
    ["client_secret", "use EVENT_API_CLIENT_SECRET"],
    ["scope", "use --scope"],
    ["audience", "use --audience"],
    ["resource", "use --resource"],
  ])("refuses %s, which the harness owns, naming the option to use (exit 2)", async (name, advice) => {
    const run = await runCliInProcess(["contract", ...TARGET, "--token-param", `${name}=x`], ENV);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--token-param ${name}: ${advice}`);
  });

  it("refuses a parameter without NAME=VALUE, and never prints the value", async () => {
    const run = await runCliInProcess(["contract", ...TARGET, "--token-param", "hidden-value-77"], ENV);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--token-param takes NAME=VALUE");
    expect(run.stderr).not.toContain("hidden-value-77");
  });

  it("--resource must be an absolute URI (RFC 8707 §2)", async () => {
    const run = await runCliInProcess(["contract", ...TARGET, "--resource", "api"], ENV);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--resource must be an absolute URI");
  });
});

describe("results.json's target records the resource and the token parameters' names, not their values", () => {
  it("against the embedded sandbox", async ({ tmpDir: dir }) => {
    const run = await runCliInProcess([
      "contract",
      "--only",
      "token.issued",
      "--resource",
      "http://127.0.0.1/api",
      "--token-param",
      "organization=org-value-31f",
      "--report-dir",
      dir,
    ]);
    expect(run.code).toBe(0);
    const results = await readFile(join(dir, "results.json"), "utf8");
    expect(JSON.parse(results).target).toMatchObject({
      resource: "http://127.0.0.1/api",
      tokenParams: ["organization"],
    });
    // A value may be an API key: the evidence shows the form with a placeholder, the run's record names it only.
    expect(results).not.toContain("org-value-31f");
    expect(results).toContain("organization=<TOKEN_PARAM:organization>");
    expect(run.stdout + run.stderr).not.toContain("org-value-31f");
  });
});
