import { writeFile } from "node:fs/promises";
import path from "node:path";
import { capacitySummary, QUICK_SEARCH } from "../../support/capacity-runs.ts";
import { describe, expect } from "../../support/fixtures.ts";
import { beforeAllK6, loadTest as it } from "../../support/load-runs.ts";

beforeAllK6();

it.afterAll(({ loads }) => {
  for (const secret of loads.secrets)
    for (const output of loads.outputs) expect(output).not.toContain(secret);
});

describe("load capacity of a deployed target, as a team runs it", () => {
  it("finds a middle capacity (250 events/s) within ±10 %: target from the config file, clients from --credentials, a client model, each step over 2 k6 instances", async ({
    loads,
    sandbox,
    tmpDir,
  }) => {
    const clients = [loads.client("capacity-a"), loads.client("capacity-b")];
    // A lifetime well past the sandbox's queue (1 s) and the client model's margin (a tenth of it): a token sent in
    // time and queued past its expiry is a real server's fault, which would read as a contract violation here.
    const api = await sandbox({ expiresIn: 30, clients, throughputLimit: 250 });
    const credentials = path.join(tmpDir, "clients.json");
    await writeFile(
      credentials,
      JSON.stringify(clients.map((c) => ({ client_id: c.clientId, client_secret: c.clientSecret }))),
    );
    const config = path.join(tmpDir, "event-harness.config.json");
    await writeFile(
      config,
      JSON.stringify({
        environments: {
          perf: { authUrl: api.authUrl, baseUrl: api.baseUrl, credentials: "clients.json" },
        },
      }),
    );
    const run = await loads.run([
      "capacity",
      "--config",
      config,
      "-e",
      "perf",
      "--client-model",
      "cache-until-expiry",
      "--instances",
      "2",
      "--rate",
      "60",
      ...QUICK_SEARCH,
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const { harness } = await capacitySummary(run);
    expect(harness.capacity.held).toBeGreaterThanOrEqual(225);
    expect(harness.capacity.held).toBeLessThanOrEqual(275);
    expect(run.stderr).toContain("each step split over 2 k6 instances");
    // Every step ran as two k6 processes whose outputs were merged.
    expect(run.stdout).toMatch(/\[k6 2\/2\]|CAPACITY/);
    const summary = run.summary as unknown as { harness: { context: { clientModel: string } } };
    expect(summary.harness.context.clientModel).toBe("cache-until-expiry");
  }, 300_000);
});
