import { readFile } from "node:fs/promises";
import path from "node:path";
import { contractCommand } from "../../../cli/commands/contract.ts";
import type { FaultName, RunningSandbox, SandboxOptions } from "../../../sandbox/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { runInProcess } from "../../support/run-in-process.ts";

const CLIENT = { clientId: "bypass-client", clientSecret: "bypass-test-secret-4a8d0e" };
const ONLY =
  "token.issued,token.wrong-secret-refused,token.unknown-client-refused,token.form-auth,token.basic-auth";

interface Check {
  readonly id: string;
  readonly status: string;
  readonly message: string;
}

/** The test's fixtures this file uses: a sandbox started on port 0 and closed after the test, a fresh directory. */
interface Fixtures {
  readonly sandbox: (options: Omit<SandboxOptions, "port">) => Promise<RunningSandbox>;
  readonly tmpDir: string;
}

async function contractAgainst(
  { sandbox: start, tmpDir: dir }: Fixtures,
  faults: FaultName[],
  clientAuth: "post" | "basic",
) {
  const sandbox = await start({ faults, clients: [CLIENT] });
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
}

describe("a bypass on the client authentication the run was not configured with", () => {
  it("contract --client-auth post against a server that checks form credentials but not HTTP Basic: FAIL, exit 1", async ({
    sandbox,
    tmpDir,
  }) => {
    const { run, check } = await contractAgainst({ sandbox, tmpDir }, ["token-basic-unchecked"], "post");
    expect(run.code, run.stdout).toBe(1);
    expect(check("token.wrong-secret-refused").status).toBe("FAIL");
    expect(check("token.wrong-secret-refused").message).toMatch(
      /^with HTTP Basic \(which the server accepts\)/,
    );
    expect(check("token.unknown-client-refused").status).toBe("FAIL");
    expect(check("token.basic-auth").status).toBe("PASS");
    expect(`${run.stdout}${run.stderr}`).not.toContain(CLIENT.clientSecret);
  });

  it("contract --client-auth basic against a server that checks HTTP Basic but not form credentials: FAIL, exit 1", async ({
    sandbox,
    tmpDir,
  }) => {
    const { run, check } = await contractAgainst({ sandbox, tmpDir }, ["token-form-unchecked"], "basic");
    expect(run.code, run.stdout).toBe(1);
    expect(check("token.wrong-secret-refused").status).toBe("FAIL");
    expect(check("token.wrong-secret-refused").message).toMatch(
      /^with form fields \(which the server accepts\)/,
    );
    expect(check("token.unknown-client-refused").status).toBe("FAIL");
    expect(check("token.form-auth").status).toBe("PASS");
  });

  it.for(["post", "basic"] as const)(
    "the correct sandbox (--client-auth %s) refuses both with both methods: PASS",
    async (clientAuth, { sandbox, tmpDir }) => {
      const { run, check } = await contractAgainst({ sandbox, tmpDir }, [], clientAuth);
      expect(run.code, run.stdout).toBe(0);
      for (const id of ["token.wrong-secret-refused", "token.unknown-client-refused"]) {
        expect(check(id).status).toBe("PASS");
        expect(check(id).message).toMatch(/with form fields .* and with HTTP Basic /);
      }
    },
  );

  it("a method the server does not accept at all is said, not probed for a bypass", async ({
    sandbox,
    tmpDir,
  }) => {
    const { run, check } = await contractAgainst({ sandbox, tmpDir }, ["token-no-basic-auth"], "post");
    expect(run.code, run.stdout).toBe(0);
    expect(check("token.wrong-secret-refused").status).toBe("PASS");
    expect(check("token.wrong-secret-refused").message).toContain(
      "HTTP Basic: valid credentials got no token either, no bypass to look for",
    );
  });
});
