import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractCommand } from "../../../cli/commands/contract.ts";
import type { FaultName } from "../../../sandbox/index.ts";
import { startSandbox } from "../../../sandbox/index.ts";
import { runInProcess } from "../../support/run-in-process.ts";

const CLIENT = { clientId: "bypass-client", clientSecret: "bypass-test-secret-4a8d0e" };
const ONLY =
  "token.issued,token.wrong-secret-refused,token.unknown-client-refused,token.form-auth,token.basic-auth";

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), "eah-bypass-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

interface Check {
  readonly id: string;
  readonly status: string;
  readonly message: string;
}

async function contractAgainst(faults: FaultName[], clientAuth: "post" | "basic", name: string) {
  const sandbox = await startSandbox({ port: 0, faults, clients: [CLIENT] });
  try {
    const dir = path.join(work, name);
    const run = await runInProcess(
      contractCommand,
      [
        "--auth-url",
        sandbox.authUrl,
        "--base-url",
        sandbox.baseUrl,
        "--client-id",
        CLIENT.clientId,
        "--client-auth",
        clientAuth,
        "--only",
        ONLY,
        "--report-dir",
        dir,
      ],
      { EVENT_API_CLIENT_SECRET: CLIENT.clientSecret },
    );
    const results = JSON.parse(await readFile(path.join(dir, "results.json"), "utf8")) as {
      checks: Check[];
    };
    const check = (id: string) => results.checks.find((candidate) => candidate.id === id) as Check;
    return { run, check };
  } finally {
    await sandbox.close();
  }
}

describe("a bypass on the client authentication the run was not configured with", () => {
  it("contract --client-auth post against a server that checks form credentials but not HTTP Basic: FAIL, exit 1", async () => {
    const { run, check } = await contractAgainst(["token-basic-unchecked"], "post", "basic-bypass");
    expect(run.code, run.stdout).toBe(1);
    expect(check("token.wrong-secret-refused").status).toBe("FAIL");
    expect(check("token.wrong-secret-refused").message).toMatch(
      /^with HTTP Basic \(which the server accepts\)/,
    );
    expect(check("token.unknown-client-refused").status).toBe("FAIL");
    expect(check("token.basic-auth").status).toBe("PASS");
    expect(`${run.stdout}${run.stderr}`).not.toContain(CLIENT.clientSecret);
  });

  it("contract --client-auth basic against a server that checks HTTP Basic but not form credentials: FAIL, exit 1", async () => {
    const { run, check } = await contractAgainst(["token-form-unchecked"], "basic", "form-bypass");
    expect(run.code, run.stdout).toBe(1);
    expect(check("token.wrong-secret-refused").status).toBe("FAIL");
    expect(check("token.wrong-secret-refused").message).toMatch(
      /^with form fields \(which the server accepts\)/,
    );
    expect(check("token.unknown-client-refused").status).toBe("FAIL");
    expect(check("token.form-auth").status).toBe("PASS");
  });

  it.each(["post", "basic"] as const)(
    "the correct sandbox (--client-auth %s) refuses both with both methods: PASS",
    async (clientAuth) => {
      const { run, check } = await contractAgainst([], clientAuth, `correct-${clientAuth}`);
      expect(run.code, run.stdout).toBe(0);
      for (const id of ["token.wrong-secret-refused", "token.unknown-client-refused"]) {
        expect(check(id).status).toBe("PASS");
        expect(check(id).message).toMatch(/with form fields .* and with HTTP Basic /);
      }
    },
  );

  it("a method the server does not accept at all is said, not probed for a bypass", async () => {
    const { run, check } = await contractAgainst(["token-no-basic-auth"], "post", "no-basic");
    expect(run.code, run.stdout).toBe(0);
    expect(check("token.wrong-secret-refused").status).toBe("PASS");
    expect(check("token.wrong-secret-refused").message).toContain(
      "HTTP Basic: valid credentials got no token either, no bypass to look for",
    );
  });
});
