import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { rotateSandboxSecret } from "../../../cli/rotation/index.ts";
import { capturedIo } from "../../support/command-io.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { startScriptedServer } from "../../support/scripted-server.ts";
import { usageRefusal } from "../../support/usage-refusal.ts";

describe("rotateSandboxSecret", () => {
  it("writes the new secret, the old one and a token taken before, and prints no secret", async ({
    sandbox,
    tmpDir,
  }) => {
    const running = await sandbox();
    const before = running.clients[0];
    if (before === undefined) throw new Error("the sandbox has no client");
    const file = path.join(tmpDir, "new-secret");
    const {
      io,
      stdout: out,
      stderr: err,
    } = capturedIo({
      EVENT_HARNESS_ADMIN_TOKEN: running.adminToken,
      EVENT_API_CLIENT_SECRET: before.clientSecret,
    });
    const code = await rotateSandboxSecret(
      { "auth-url": running.authUrl, "client-id": before.clientId, "secret-file": file },
      io,
    );
    expect(code, err()).toBe(0);
    // The sandbox itself says which secret is now current.
    const after = running.clients[0]?.clientSecret ?? "";
    expect(after).not.toBe(before.clientSecret);
    expect(await readFile(file, "utf8")).toBe(after);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(`${file}.old-secret`, "utf8")).toBe(before.clientSecret);
    expect((await readFile(`${file}.old-token`, "utf8")).split(".")).toHaveLength(3);
    expect((await readdir(tmpDir)).sort()).toEqual([
      "new-secret",
      "new-secret.old-secret",
      "new-secret.old-token",
    ]);
    const printed = out();
    expect(printed).toContain(`Rotated the secret of client ${before.clientId} at ${running.authUrl}.`);
    expect(printed).toContain("  Old secret       refused from now on");
    expect(printed).toContain("  Earlier tokens   valid until they expire");
    expect(printed).toMatch(
      /^Verify with: EVENT_API_CLIENT_SECRET=.* --old-secret-file .* --expect-old refused --expect-old-tokens valid /m,
    );
    for (const secret of [after, before.clientSecret, running.adminToken])
      expect(printed + err()).not.toContain(secret);
  });

  it("--show-secret prints the secret alone on stdout and what happened on stderr", async ({ sandbox }) => {
    const running = await sandbox();
    const clientId = running.clients[0]?.clientId ?? "";
    const { io, stdout: out, stderr: err } = capturedIo({ EVENT_HARNESS_ADMIN_TOKEN: running.adminToken });
    const code = await rotateSandboxSecret(
      {
        "auth-url": running.authUrl,
        "client-id": clientId,
        "show-secret": true,
        overlap: "60",
        revoke: true,
      },
      io,
    );
    expect(code, err()).toBe(0);
    expect(out()).toBe(`${running.clients[0]?.clientSecret}\n`);
    const until = /Old secret +accepted until (\S+) \(60 s overlap\)/.exec(err())?.[1];
    expect(until).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(err()).toMatch(
      /Earlier tokens +revoked \(not-before-policy \d+, \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)/,
    );
  });

  it("refuses a command line that keeps the secret nowhere, or twice, before anything is sent", async ({
    tmpDir,
  }) => {
    const env = { EVENT_HARNESS_ADMIN_TOKEN: "t", EVENT_API_AUTH_URL: "http://127.0.0.1:9/auth" };
    const neither = await usageRefusal(rotateSandboxSecret({ "client-id": "c" }, capturedIo(env).io));
    expect(neither.message).toBe(
      "give exactly one of --secret-file FILE and --show-secret: the new secret must be kept somewhere",
    );
    await usageRefusal(
      rotateSandboxSecret(
        { "client-id": "c", "show-secret": true, "secret-file": path.join(tmpDir, "s") },
        capturedIo(env).io,
      ),
    );
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it.for([
    [
      {},
      { EVENT_HARNESS_ADMIN_TOKEN: "t" },
      "missing-argument",
      "--auth-url (or EVENT_API_AUTH_URL) is required",
    ],
    [
      { "auth-url": "http://127.0.0.1:9/auth?x=1" },
      { EVENT_HARNESS_ADMIN_TOKEN: "t" },
      "invalid-value",
      "--auth-url must be an http(s) URL without query, fragment or user info",
    ],
    [
      { "auth-url": "http://127.0.0.1:9/auth", "client-id": " " },
      { EVENT_HARNESS_ADMIN_TOKEN: "t" },
      "missing-argument",
      "--client-id (or EVENT_API_CLIENT_ID) is required",
    ],
    [
      { "auth-url": "http://127.0.0.1:9/auth", "client-id": "c" },
      { EVENT_HARNESS_ADMIN_TOKEN: "  " },
      "invalid-config",
      "EVENT_HARNESS_ADMIN_TOKEN must hold the sandbox's admin token (`event-harness sandbox` prints it)",
    ],
  ] as const)("refuses %j with %j: %s", async ([options, env, code, message]) => {
    const error = await usageRefusal(
      rotateSandboxSecret({ "show-secret": true, ...options }, capturedIo(env).io),
    );
    expect([error.code, error.message]).toEqual([code, message]);
  });

  it("says nothing was rotated when the sandbox cannot be reached (exit 3), and leaves no file", async ({
    tmpDir,
  }) => {
    const closed = await startScriptedServer(() => ({ status: 200 }));
    await closed.close();
    const {
      io,
      stdout: out,
      stderr: err,
    } = capturedIo({
      EVENT_HARNESS_ADMIN_TOKEN: "admin-token-unreached",
    });
    const code = await rotateSandboxSecret(
      { "auth-url": `${closed.url}/auth`, "client-id": "c", "secret-file": path.join(tmpDir, "s") },
      io,
    );
    expect(code).toBe(3);
    expect(out()).toBe("");
    expect(err()).toMatch(/^event-harness: cannot reach the admin endpoint .*; nothing was rotated\n$/);
    expect(await readdir(tmpDir)).toEqual([]);
  });
});
