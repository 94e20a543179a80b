import { readFile } from "node:fs/promises";
import path from "node:path";
import { runCommand } from "../../../cli/commands/run.ts";
import { describe, expect, test } from "../../support/fixtures.ts";
import { metadataFor, startMetadataServer } from "../../support/metadata-server.ts";
import { runInProcess } from "../../support/run-in-process.ts";
import { startTokenTrap } from "../../support/token-trap.ts";

const CLIENT = { clientId: "once-test-client", clientSecret: "once-test-secret-0d7a4f2c" };

/** `issuer`: the sandbox, a token trap and metadata naming the one, then the other; closed after the test. */
const it = test.extend("issuer", async ({ sandbox: start }, { onCleanup }) => {
  const sandbox = await start({ expiresIn: 30, clients: [CLIENT] });
  const trap = await startTokenTrap();
  // The first read names the sandbox; every later one an endpoint nobody named: a part that reads the metadata
  // again sends the secret there.
  const changing = await startMetadataServer({
    document: (read, issuer) =>
      read === 0 ? metadataFor(issuer, sandbox.tokenUrl) : metadataFor(issuer, trap.tokenUrl),
  });
  onCleanup(async () => {
    await changing.close();
    await trap.close();
  });
  return { sandbox, trap, changing };
});

describe("run --issuer against metadata whose answer changes between reads", () => {
  it("reads it once and every part (contract, load) uses the endpoint the header names", {
    timeout: 120_000,
  }, async ({ issuer: { sandbox, trap, changing }, tmpDir }) => {
    const dir = path.join(tmpDir, "run");
    const run = await runInProcess(
      runCommand,
      [
        "--issuer",
        changing.issuer,
        "--base-url",
        sandbox.baseUrl,
        "--client-id",
        CLIENT.clientId,
        "--parts",
        "contract,load",
        "--profile",
        "fast",
        "--scenario",
        "sustained=2s",
        "--rate",
        "2",
        "--report-dir",
        dir,
      ],
      { EVENT_API_CLIENT_SECRET: CLIENT.clientSecret },
    );
    expect(trap.requests).toEqual([]);
    expect(changing.reads()).toBe(1);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain(`(token endpoint ${sandbox.tokenUrl} on `);
    const recorded = async (file: string) =>
      (JSON.parse(await readFile(path.join(dir, file), "utf8")) as { target: Record<string, unknown> })
        .target;
    const origin = new URL(sandbox.tokenUrl).origin;
    for (const file of ["run.json", "contract/results.json", "load-sustained/run.json"]) {
      expect(await recorded(file), file).toMatchObject({
        tokenUrl: sandbox.tokenUrl,
        issuer: changing.issuer,
        tokenEndpointOrigin: origin,
      });
    }
    expect(await readFile(path.join(dir, "load-sustained", "summary.md"), "utf8")).toContain(
      `on ${origin}, another origin than the issuer ${changing.issuer}`,
    );
    expect(`${run.stdout}${run.stderr}`).not.toContain(CLIENT.clientSecret);
  });
});
