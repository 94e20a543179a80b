import { tokenCommand } from "../../../cli/commands/token.ts";
import type { LoadSettings } from "../../../cli/load/load-settings.ts";
import { runVariables } from "../../../cli/load/run-variables.ts";
import { resolveTarget } from "../../../cli/options/target-options.ts";
import { createEventGenerator } from "../../../generators/index.ts";
import {
  createVuClient,
  planScenario,
  readRunConfig,
  toEventTemplate,
  vuSettings,
} from "../../../load/index.ts";
import { targetTokenFields } from "../../../transport/index.ts";
import { describe, expect } from "../../support/fixtures.ts";
import type { HydraLikeServer } from "../../support/hydra-like-server.ts";
import { hydraTest as it } from "../../support/hydra-like-server.ts";
import { runInProcess } from "../../support/run-in-process.ts";

const secret = (hydra: HydraLikeServer) => ({ EVENT_API_CLIENT_SECRET: hydra.clientSecret });
const named = (hydra: HydraLikeServer) => [
  "--token-url",
  hydra.tokenUrl,
  "--client-id",
  hydra.clientId,
  "--client-auth",
  "basic",
];

describe("--audience none", () => {
  it("token sends no audience field, and needs no --base-url", async ({ hydra }) => {
    const before = hydra.forms.length;
    const run = await runInProcess(tokenCommand, [...named(hydra), "--audience", "none"], secret(hydra));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^ory_at_\S+\n$/);
    const forms = hydra.forms.slice(before);
    expect(forms).toHaveLength(1);
    expect(forms[0]?.has("audience")).toBe(false);
  });

  it("token takes an audience of its own without --base-url, and still asks for --base-url when it has neither", async ({
    hydra,
  }) => {
    const before = hydra.forms.length;
    const run = await runInProcess(
      tokenCommand,
      [...named(hydra), "--audience", "https://api.example.com"],
      secret(hydra),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(hydra.forms.slice(before).map((form) => form.get("audience"))).toEqual([
      "https://api.example.com",
    ]);
    const neither = await runInProcess(tokenCommand, named(hydra), secret(hydra));
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain("--base-url (EVENT_API_BASE_URL)");
  });

  it("from EVENT_API_AUDIENCE too, and then no token request of any sender carries one", ({ hydra }) => {
    const target = resolveTarget(
      {},
      {
        EVENT_API_TOKEN_URL: hydra.tokenUrl,
        EVENT_API_BASE_URL: "https://api.example.com",
        EVENT_API_CLIENT_ID: hydra.clientId,
        EVENT_API_CLIENT_SECRET: hydra.clientSecret,
        EVENT_API_AUDIENCE: "none",
      },
    );
    expect(target?.audience).toBeUndefined();
    if (target === undefined) throw new Error("no target");
    // The contract suite, the preflight and rotation start from these fields.
    expect(targetTokenFields(target)).not.toHaveProperty("audience");
    // A load run's VUs get the target through k6's environment.
    const env = runVariables({
      settings: { instances: 1, thresholds: {}, marginSeconds: undefined } as unknown as LoadSettings,
      target,
      credentials: [{ clientId: hydra.clientId, clientSecret: hydra.clientSecret }],
      runId: "r",
      dataFile: "/tmp/data.json",
      expiresInSeconds: 300,
    });
    const config = readRunConfig(env, "sustained");
    expect(config.audience).toBeUndefined();
    const bodies: unknown[] = [];
    createVuClient({
      settings: vuSettings(config, planScenario(config), "/tmp/summary.json"),
      credentialsJson: JSON.stringify([{ client_id: "a", client_secret: "b" }]),
      tokenParamsJson: undefined,
      http: {
        post: (_url, body) => {
          bodies.push(body);
          return { status: 200, body: '{"access_token":"t","expires_in":300}', timings: { duration: 1 } };
        },
      },
      vuIdInTest: () => 1,
      templates: createEventGenerator({ seed: 1, runId: "aud" }).take(2).map(toEventTemplate),
      record: { tokenRequest() {}, expiry() {}, eventRejected() {}, eventFailed() {}, redirect() {} },
      base64: (text) => Buffer.from(text).toString("base64"),
      capResponseBodies() {},
      bodyCapBytes: 1024,
    })(0, 0, true, false);
    expect(bodies[0]).toEqual({ client_id: "a", client_secret: "b", grant_type: "client_credentials" });
  });
});
