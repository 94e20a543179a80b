import { contractCommand } from "../../../cli/commands/contract.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { startHugeTokenFront } from "../../support/huge-token-front.ts";
import { filesUnder } from "../../support/report-texts.ts";
import { runCliInProcess, runInProcess } from "../../support/run-in-process.ts";

const CLIENT = { clientId: "huge-token-client", clientSecret: "huge-token-secret-7c1d9e" };
/** 200 characters of a token in a row: any report that showed one would hold such a run. */
const TOKEN_STRETCH = /[A-Za-z0-9_-]{200,}/;

interface Check {
  readonly id: string;
  readonly status: string;
  readonly message: string;
  readonly evidence: Array<{ readonly error?: string; readonly response?: { readonly body?: string } }>;
}

describe("a target that issues huge access tokens", () => {
  it("longer than the harness can hide: every check that gets one is ERROR, none of the answer shown, exit 3", async ({
    sandbox,
    tmpDir,
  }) => {
    const target = await sandbox({ clients: [CLIENT] });
    const front = await startHugeTokenFront(new URL(target.authUrl).origin, 80 * 1024);
    try {
      const run = await runInProcess(
        contractCommand,
        [
          "--auth-url",
          front.url(target.authUrl),
          "--base-url",
          front.url(target.baseUrl),
          "--client-id",
          CLIENT.clientId,
          // The sandbox issues tokens for its own base URL, which the front forwards to.
          "--audience",
          target.baseUrl,
          "--only",
          "token.issued,events.accepted,inputs.token-form",
          "--fuzz-runs",
          "20",
          "--report-dir",
          tmpDir,
        ],
        { EVENT_API_CLIENT_SECRET: CLIENT.clientSecret },
      );
      expect(run.code, run.stdout + run.stderr).toBe(3);
      const outputs = await filesUnder(tmpDir);
      outputs.set("stdout", run.stdout);
      const { checks } = JSON.parse(outputs.get("results.json") ?? "{}") as { checks: Check[] };
      expect(checks.map((check) => [check.id, check.status])).toEqual([
        ["token.issued", "ERROR"],
        ["events.accepted", "ERROR"],
        ["inputs.token-form", "ERROR"],
      ]);
      for (const check of checks) {
        expect(check.message).toMatch(
          /^could not decide: ".+" was answered 200, but the access_token it carries has 81,920 characters, more than the 65,536 the harness can hide in its reports; none of it is shown$/,
        );
      }
      const issued = checks[0]?.evidence.at(-1);
      expect(issued?.error).toMatch(
        /^answered 200, not shown: the access_token it carries has 81,920 characters/,
      );
      expect(issued?.response).toBeUndefined();
      for (const [file, text] of outputs) expect(TOKEN_STRETCH.test(text), file).toBe(false);
    } finally {
      await front.close();
    }
  });

  it("load: stops before k6 starts with one sentence, exit 3, when the preflight's token is longer than it can hide", async ({
    sandbox,
    tmpDir,
  }) => {
    const target = await sandbox({ clients: [CLIENT] });
    const front = await startHugeTokenFront(new URL(target.authUrl).origin, 80 * 1024);
    try {
      const run = await runCliInProcess(
        [
          "load",
          "sustained",
          "--auth-url",
          front.url(target.authUrl),
          "--base-url",
          front.url(target.baseUrl),
          "--audience",
          target.baseUrl,
          "--client-id",
          CLIENT.clientId,
          "--report-dir",
          tmpDir,
        ],
        { EVENT_API_CLIENT_SECRET: CLIENT.clientSecret },
      );
      expect(run.code, run.stdout + run.stderr).toBe(3);
      expect(run.stderr).toMatch(
        /^event-harness: the token endpoint http:\/\/127\.0\.0\.1:\d+\/auth\/oauth\/token gave client huge-token-client an access token that has 81,920 characters, more than the 65,536 the harness can hide in its reports\n/,
      );
      expect(run.stderr).not.toContain("internal error");
      expect(TOKEN_STRETCH.test(run.stdout + run.stderr)).toBe(false);
    } finally {
      await front.close();
    }
  });

  it("load: the same when that token also lacks a usable lifetime, and nothing of the answer is quoted", async ({
    sandbox,
    tmpDir,
  }) => {
    const target = await sandbox({ clients: [CLIENT] });
    const front = await startHugeTokenFront(new URL(target.authUrl).origin, 80 * 1024, {
      withoutLifetime: true,
    });
    try {
      const run = await runCliInProcess(
        [
          "load",
          "sustained",
          "--auth-url",
          front.url(target.authUrl),
          "--base-url",
          front.url(target.baseUrl),
          "--audience",
          target.baseUrl,
          "--client-id",
          CLIENT.clientId,
          "--report-dir",
          tmpDir,
        ],
        { EVENT_API_CLIENT_SECRET: CLIENT.clientSecret },
      );
      expect(run.code, run.stdout + run.stderr).toBe(3);
      expect(run.stderr).toMatch(/gave client huge-token-client an access token that has 81,920 characters/);
      expect(run.stderr).not.toContain("internal error");
      expect(TOKEN_STRETCH.test(run.stdout + run.stderr)).toBe(false);
    } finally {
      await front.close();
    }
  });

  it("run: an old token in the environment longer than it can hide is exit 2 before anything runs", async ({
    tmpDir,
  }) => {
    const run = await runCliInProcess(["run", "--parts", "contract", "--report-dir", tmpDir], {
      EVENT_API_OLD_ACCESS_TOKEN: "t".repeat(80 * 1024),
    });
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toContain(
      "EVENT_API_OLD_ACCESS_TOKEN has 81,920 characters, more than the 65,536 the harness can hide in its reports",
    );
  });

  it("as long as a header may carry (12 KiB): judged as any other, and hidden in every report", async ({
    sandbox,
    tmpDir,
  }) => {
    const target = await sandbox({ clients: [CLIENT] });
    const front = await startHugeTokenFront(new URL(target.authUrl).origin, 12 * 1024);
    try {
      const run = await runInProcess(
        contractCommand,
        [
          "--auth-url",
          front.url(target.authUrl),
          "--base-url",
          front.url(target.baseUrl),
          "--client-id",
          CLIENT.clientId,
          // The sandbox issues tokens for its own base URL, which the front forwards to.
          "--audience",
          target.baseUrl,
          "--only",
          "token.issued,events.accepted,bearer.truncated,inputs.token-form",
          "--fuzz-runs",
          "20",
          "--report-dir",
          tmpDir,
        ],
        { EVENT_API_CLIENT_SECRET: CLIENT.clientSecret },
      );
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(front.issued()).toBeGreaterThan(3);
      const outputs = await filesUnder(tmpDir);
      outputs.set("stdout", run.stdout);
      expect(outputs.get("results.json")).toContain("<ACCESS_TOKEN>");
      for (const [file, text] of outputs) expect(TOKEN_STRETCH.test(text), file).toBe(false);
    } finally {
      await front.close();
    }
  });
});
