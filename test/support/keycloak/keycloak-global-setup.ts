import { createServer } from "node:http";
import type { TestProject } from "vitest/node";
import { type RunningKeycloak, startKeycloak } from "./keycloak-server.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The loopback URL a test file asks for the run's Keycloak (test/support/keycloak/keycloak-fixture.ts). */
    keycloakBroker: string;
  }
}

/**
 * The slow project's global setup: one Keycloak for the whole run, shared by every file that asks for it, started by
 * the first file that does (a run without a Keycloak file starts none) and stopped after the last file. Keycloak
 * lives in this main process, so no worker can leave it running; files reach it through a small loopback broker
 * whose one route answers with Keycloak's URLs once it is ready, or with why it could not start.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let keycloak: Promise<RunningKeycloak> | undefined;
  const broker = createServer((req, res) => {
    if (req.url !== "/keycloak") {
      res.writeHead(404).end();
      return;
    }
    keycloak ??= startKeycloak((line) => process.stderr.write(`[keycloak] ${line}\n`));
    keycloak.then(
      (running) => {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(running.info));
      },
      (error: unknown) => {
        res
          .writeHead(500, { "content-type": "text/plain" })
          .end(error instanceof Error ? error.message : String(error));
      },
    );
  });
  // A file waits as long as Keycloak's start takes: no request timeout on the broker's side.
  broker.requestTimeout = 0;
  await new Promise<void>((resolve) => broker.listen(0, "127.0.0.1", resolve));
  const address = broker.address();
  if (address === null || typeof address === "string") throw new Error("the Keycloak broker has no port");
  project.provide("keycloakBroker", `http://127.0.0.1:${address.port}`);
  return async () => {
    broker.closeAllConnections();
    await new Promise((resolve) => broker.close(resolve));
    if (keycloak !== undefined) await (await keycloak.catch(() => undefined))?.stop();
  };
}
