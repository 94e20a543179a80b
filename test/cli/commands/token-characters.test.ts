import { createServer } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { tokenCommand } from "../../../cli/commands/token.ts";
import type { Loopback } from "../../support/loopback.ts";
import { listenOnLoopback } from "../../support/loopback.ts";
import { runInProcess } from "../../support/run-in-process.ts";

// `token` prints what a token endpoint issued, alone on a line: only a token of RFC 6750 §2.1's b64token characters.
let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A token endpoint that issues `accessToken` to anyone. */
async function issuing(accessToken: string): Promise<string> {
  server = await listenOnLoopback(
    createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
        res.end(JSON.stringify({ access_token: accessToken, token_type: "Bearer", expires_in: 60 }));
      });
    }),
  );
  return server.url;
}

async function tokenFrom(accessToken: string) {
  const url = await issuing(accessToken);
  return runInProcess(
    tokenCommand,
    ["--token-url", `${url}/token`, "--base-url", `${url}/api`, "--client-id", "c"],
    {
      EVENT_API_CLIENT_SECRET: "token-characters-secret",
    },
  );
}

describe("event-harness token prints only a b64token", () => {
  it.each([
    ["an escape sequence", "abc\u001b[2Jdef"],
    ["a line break and a workflow command", "abc\n::error::forged"],
    ["a workflow command", "::add-mask::abcdef"],
    ["a BEL and a CR", "abc\u0007\rdef"],
    ["a bidi override", "abc\u202edef"],
    ["a space", "abc def"],
    ["padding before the end", "ab=cd"],
  ])("refuses a token with %s: exit 3, nothing on stdout, the token not quoted", async (_, accessToken) => {
    const run = await tokenFrom(accessToken);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("b64token");
    expect(run.stderr).not.toContain(accessToken);
    expect(run.stderr).not.toContain("abc");
  });

  it("prints a token of every b64token character, padding at the end included", async () => {
    const accessToken = "AZaz09-._~+/abc==";
    const run = await tokenFrom(accessToken);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`${accessToken}\n`);
  });
});
