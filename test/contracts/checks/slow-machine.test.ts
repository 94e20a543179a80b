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

/**
 * A target whose tokens live 3 s and which answers the second use of a token 4.5 s late, past the 5 s the sliding
 * check watches a token for. With `slides` false a token works only for 3 s after its issue (fixed lifetime, a
 * violation of the sliding rule); with `slides` true every use is accepted.
 */
async function slowSecondUseTarget(slides: boolean): Promise<Server> {
  let issuedAt = 0;
  let uses = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url?.endsWith("/oauth/token")) {
        issuedAt = Date.now();
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ access_token: "a.b.c", token_type: "Bearer", expires_in: 3 }));
        return;
      }
      uses += 1;
      if (!slides && Date.now() - issuedAt > 3_000) {
        res.writeHead(401, { "www-authenticate": 'Bearer error="invalid_token"' });
        res.end();
        return;
      }
      setTimeout(
        () => {
          res.writeHead(202, { "content-type": "application/json" });
          res.end(`{"EventRef":"evt-${uses}"}`);
        },
        uses === 2 ? 4_500 : 0,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

async function runOne(target: Server, check: string) {
  server = target;
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
      timeoutMs: 10_000,
      embedded: false,
    },
    profile: "full",
    only: [check],
    seed: 1,
    runId: "slow-machine",
  });
  return result;
}

async function noEarlyExpiry(firstUseDelayMs: number) {
  return runOne(await earlyExpiryTarget(firstUseDelayMs), "lifetime.no-early-expiry");
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

describe("a slow answer never gives a false PASS of sliding expiry", () => {
  it("cannot decide when the only use past the watch was sent within the token's first lifetime", {
    timeout: 30_000,
  }, async () => {
    // The second use reached the target 0.75 s after the first and was accepted; its answer came 5.25 s after.
    const result = await runOne(await slowSecondUseTarget(false), "lifetime.sliding");
    expect(result?.status).toBe("ERROR");
    expect(result?.message).toMatch(/too slow to tell early expiry from a slow machine/);
  });

  it("passes a sliding target once a use sent past the watch is accepted", { timeout: 30_000 }, async () => {
    const result = await runOne(await slowSecondUseTarget(true), "lifetime.sliding");
    expect(result?.status).toBe("PASS");
    expect(result?.message).toMatch(/used 3 times over .* the last use was sent 5\.\d s after/);
  });
});
