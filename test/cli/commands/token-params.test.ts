import { describe, expect, it } from "vitest";
import { runCli } from "../../support/run-cli.ts";

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
    const run = await runCli(["contract", ...TARGET, "--token-param", `${name}=x`], ENV);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--token-param ${name}: ${advice}`);
  });

  it("refuses a parameter without NAME=VALUE, and never prints the value", async () => {
    const run = await runCli(["contract", ...TARGET, "--token-param", "hidden-value-77"], ENV);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--token-param takes NAME=VALUE");
    expect(run.stderr).not.toContain("hidden-value-77");
  });

  it("--resource must be an absolute URI (RFC 8707 §2)", async () => {
    const run = await runCli(["contract", ...TARGET, "--resource", "api"], ENV);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--resource must be an absolute URI");
  });
});
