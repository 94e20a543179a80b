import { createServer, type Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { runContract } from "../../../cli/contract/run-contract.ts";
import { DIRECT } from "../../../contracts/index.ts";

/**
 * A target whose tokens live 3 s and which refuses every use after the first: early expiry. `firstUseDelayMs`
 * slows the first use's answer, as a busy machine would, so the refusal no longer proves anything.
 */
async function earlyExpiryTarget(firstUseDelayMs: number): Promise<Server> {
  let uses = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url?.endsWith("/oauth/token")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ access_token: "a.b.c", token_type: "Bearer", expires_in: 3 }));
        return;
      }
      uses += 1;
      if (uses === 1) {
        setTimeout(() => {
          res.writeHead(202, { "content-type": "application/json" });
          res.end('{"EventRef":"evt-1"}');
        }, firstUseDelayMs);
        return;
      }
      res.writeHead(401, { "www-authenticate": 'Bearer error="invalid_token"' });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function noEarlyExpiry(firstUseDelayMs: number) {
  server = await earlyExpiryTarget(firstUseDelayMs);
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  const url = `http://127.0.0.1:${address.port}`;
  const [result] = await runContract({
    target: {
      tokenUrl: `${url}/auth/oauth/token`,
      baseUrl: `${url}/api`,
      clientId: "c",
      clientSecret: "s",
      audience: `${url}/api`,
      clientAuth: "post",
      connection: DIRECT,
      timeoutMs: 5_000,
      embedded: false,
    },
    profile: "full",
    only: ["lifetime.no-early-expiry"],
    seed: 1,
    runId: "slow-machine",
  });
  return result;
}

describe("a slow machine gives ERROR, never a false FAIL", () => {
  it("fails early expiry when the exchanges were quick", { timeout: 30_000 }, async () => {
    const result = await noEarlyExpiry(0);
    expect(result?.status).toBe("FAIL");
  });

  it("cannot decide when a slow answer may have let the token idle for expires_in", {
    timeout: 30_000,
  }, async () => {
    const result = await noEarlyExpiry(1_500);
    expect(result?.status).toBe("ERROR");
    expect(result?.message).toMatch(/too slow to tell early expiry from a slow machine/);
  });
});
