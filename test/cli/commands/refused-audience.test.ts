import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { join } from "node:path";
import { describe, expect, it } from "../../support/fixtures.ts";
import { listenOnLoopback } from "../../support/loopback.ts";
import { runCliInProcess } from "../../support/run-in-process.ts";

const CLIENT_ID = "shop-1";
const SECRET = "audience-test-secret-5d0e";
const ADVICE_AUDIENCE =
  'give --audience the identifier the server registers for this API, or --audience none ("audience": "none" in a config file) to send none';

/** The lines the harness says in its own name: the diagnosis must be the only one, said once. */
function harnessLines(run: { stderr: string }): string[] {
  return run.stderr.split("\n").filter((line) => line.startsWith("event-harness: "));
}

async function json(file: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
}

/**
 * A token endpoint that knows one resource, as oidc-provider with resource indicators does: another `resource` is
 * refused with 400 invalid_target; `scope` other than "events" with 400 invalid_scope. It ignores `audience`. Every
 * form it got is kept, in order.
 */
async function resourceServer() {
  const forms: URLSearchParams[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const answer = (status: number, body: Record<string, unknown>) => {
      res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
      res.end(JSON.stringify(body));
    };
    if (!req.url?.endsWith("/token")) return answer(401, { error: "invalid_token" });
    const form = new URLSearchParams(Buffer.concat(chunks).toString());
    forms.push(form);
    if (form.get("client_id") !== CLIENT_ID || form.get("client_secret") !== SECRET) {
      return answer(401, { error: "invalid_client", error_description: "client authentication failed" });
    }
    const resource = form.get("resource");
    if (resource !== null && resource !== "https://api.example.com") {
      return answer(400, {
        error: "invalid_target",
        error_description: "resource indicator is missing, or unknown",
      });
    }
    const scope = form.get("scope");
    if (scope !== null && scope !== "events") {
      return answer(400, { error: "invalid_scope", error_description: "requested scope is not allowed" });
    }
    return answer(200, {
      access_token: randomBytes(32).toString("base64url"),
      expires_in: 300,
      token_type: "Bearer",
    });
  });
  const loopback = await listenOnLoopback(server);
  return { ...loopback, forms };
}

describe("an audience or resource the token endpoint refuses: one sentence before any check, exit 3", () => {
  it("contract with a wrong --base-url path: names the audience sent, that it is the base URL, and the ways out", async ({
    tmpDir,
    sandbox,
    targetEnv,
  }) => {
    const target = await sandbox({ clients: [{ clientId: CLIENT_ID, clientSecret: SECRET }] });
    const wrongBase = target.baseUrl.replace(/\/api$/, "/v1");
    const dir = join(tmpDir, "wrong-base");
    const run = await runCliInProcess(
      ["contract", "--base-url", wrongBase, "--report-dir", dir],
      targetEnv(target),
    );
    expect(run.code).toBe(3);
    const said =
      `the token endpoint ${target.tokenUrl} refused the audience ${wrongBase} (the base URL, which is the audience ` +
      `unless --audience sets one) for client ${CLIENT_ID}: it answered 400 application/json invalid_target: ` +
      `"The audience must be this API's base URL, ${target.baseUrl}", and gave a token to the same request without it; ` +
      `check --base-url (events go to {base-url}/events); ${ADVICE_AUDIENCE}`;
    expect(harnessLines(run)).toEqual([`event-harness: ${said}`]);
    // No check judged the target: no FAIL, and no check line repeating the answer.
    expect(run.stdout).not.toMatch(/FAIL|SKIP +token\./);
    expect(run.stdout.match(/invalid_target/g) ?? []).toEqual([]);
    expect(run.stdout).toMatch(
      /^Verdict: COULD NOT DECIDE \(could not test the target: see above\) — \d+ SKIP /m,
    );
    const results = await json(join(dir, "results.json"));
    expect(results.couldNotTest).toBe(said);
    expect(new Set((results.checks as Array<{ status: string }>).map((check) => check.status))).toEqual(
      new Set(["SKIP"]),
    );
    expect(await readFile(join(dir, "summary.md"), "utf8")).toMatch(
      /^## ⛔ Could not decide: could not test the target: `the token endpoint \S+ refused the audience /,
    );
  });

  it("run with a given --audience the server does not know: names --audience, no part runs, run.json says why", async ({
    tmpDir,
    sandbox,
    targetEnv,
  }) => {
    const target = await sandbox({ clients: [{ clientId: CLIENT_ID, clientSecret: SECRET }] });
    const dir = join(tmpDir, "run-audience");
    const run = await runCliInProcess(
      ["run", "--audience", "events-api", "--report-dir", dir],
      targetEnv(target),
    );
    expect(run.code).toBe(3);
    const lines = harnessLines(run);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^event-harness: the token endpoint \S+ refused the audience events-api \(--audience\) for client shop-1: it answered 400 .*invalid_target.*, and gave a token to the same request without it; give --audience /,
    );
    expect(lines[0]).not.toContain("--base-url");
    expect(run.stdout).toMatch(
      /skipped +Contract suite .*\(not run: the preflight could not test the target\)/,
    );
    expect((await json(join(dir, "run.json"))).couldNotTest).toBe(lines[0]?.slice("event-harness: ".length));
  });

  it("load with a wrong --base-url path: the load does not start (exit 3), the same sentence", async ({
    tmpDir,
    sandbox,
    targetEnv,
  }) => {
    const target = await sandbox({ clients: [{ clientId: CLIENT_ID, clientSecret: SECRET }] });
    const run = await runCliInProcess(
      ["load", "sustained", "--base-url", `${target.baseUrl}/v1`, "--report-dir", join(tmpDir, "load")],
      targetEnv(target),
    );
    expect(run.code).toBe(3);
    expect(harnessLines(run)).toEqual([
      expect.stringMatching(/refused the audience \S+\/api\/v1 \(the base URL, .*; check --base-url /),
    ]);
    expect(run.stderr).not.toContain("k6");
  });

  it("a --resource the server does not know: blames the resource alone, as the server's words do", async ({
    tmpDir,
  }) => {
    const server = await resourceServer();
    try {
      const run = await runCliInProcess(
        ["contract", "--resource", "https://other.example.com", "--report-dir", join(tmpDir, "resource")],
        {
          EVENT_API_TOKEN_URL: `${server.url}/token`,
          EVENT_API_BASE_URL: `${server.url}/api`,
          EVENT_API_CLIENT_ID: CLIENT_ID,
          EVENT_API_CLIENT_SECRET: SECRET,
        },
      );
      expect(run.code).toBe(3);
      expect(harnessLines(run)).toEqual([
        `event-harness: the token endpoint ${server.url}/token refused the resource https://other.example.com (--resource) for client ${CLIENT_ID}: ` +
          `it answered 400 application/json invalid_target: "resource indicator is missing, or unknown", and gave a token to the same request without it; ` +
          "give --resource the identifier the server registers for this API, or leave --resource out",
      ]);
      // The second request left out the resource only: the audience still went, as configured.
      const [first, second] = server.forms;
      expect(first?.get("resource")).toBe("https://other.example.com");
      expect(second?.has("resource")).toBe(false);
      expect(second?.get("audience")).toBe(`${server.url}/api`);
      expect(`${run.stdout}${run.stderr}`).not.toContain(SECRET);
    } finally {
      await server.close();
    }
  });

  it("a 400 about something else (an unknown scope) is left to the checks to judge", async ({ tmpDir }) => {
    const server = await resourceServer();
    try {
      const run = await runCliInProcess(
        ["contract", "--only", "token.issued", "--scope", "admin", "--report-dir", join(tmpDir, "scope")],
        {
          EVENT_API_TOKEN_URL: `${server.url}/token`,
          EVENT_API_BASE_URL: `${server.url}/api`,
          EVENT_API_CLIENT_ID: CLIENT_ID,
          EVENT_API_CLIENT_SECRET: SECRET,
        },
      );
      expect(run.code).toBe(1);
      expect(harnessLines(run)).toEqual([]);
      expect(run.stdout).toMatch(/FAIL +token\.issued +MUST +.*invalid_scope/);
    } finally {
      await server.close();
    }
  });
});
