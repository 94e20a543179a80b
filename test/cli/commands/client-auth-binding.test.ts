import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { contractCommand } from "../../../cli/commands/contract.ts";
import { loadCommand } from "../../../cli/commands/load.ts";
import { runCommand } from "../../../cli/commands/run.ts";
import { tokenCommand } from "../../../cli/commands/token.ts";
import type { FaultName, RunningSandbox } from "../../../sandbox/index.ts";
import { startSandbox } from "../../../sandbox/index.ts";
import { describe, expect, test } from "../../support/fixtures.ts";
import { metadataFor, startMetadataServer } from "../../support/metadata-server.ts";
import { runInProcess } from "../../support/run-in-process.ts";

const CLIENT = { clientId: "binding-client", clientSecret: "binding-test-secret-91c4e7" };
const ONLY = "token.issued,token.form-auth,token.basic-auth";

/** A sandbox whose client authenticates one way only, started once for the file. */
function oneWayOnly(fault: FaultName) {
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
  return async ({}, { onCleanup }: { onCleanup: (fn: () => Promise<void>) => void }) => {
    const sandbox = await startSandbox({ port: 0, faults: [fault], clients: [CLIENT] });
    onCleanup(() => sandbox.close());
    return sandbox;
  };
}

/** `basicOnly`: a client that accepts HTTP Basic only; `formOnly`: one that accepts form fields only. */
const it = test
  .extend("basicOnly", { scope: "file" }, oneWayOnly("token-basic-only"))
  .extend("formOnly", { scope: "file" }, oneWayOnly("token-no-basic-auth"));

const targetArgs = (sandbox: RunningSandbox) => [
  "--auth-url",
  sandbox.authUrl,
  "--base-url",
  sandbox.baseUrl,
  "--client-id",
  CLIENT.clientId,
];
const secretEnv = { EVENT_API_CLIENT_SECRET: CLIENT.clientSecret };

interface Results {
  readonly target: { readonly clientAuth: string };
  readonly checks: ReadonlyArray<{ readonly id: string; readonly status: string }>;
}
async function results(reportDir: string): Promise<Results> {
  return JSON.parse(await readFile(path.join(reportDir, "results.json"), "utf8")) as Results;
}
const statusOf = (r: Results, id: string) => r.checks.find((check) => check.id === id)?.status;

const NOTE = (given: string, works: string) =>
  `event-harness: the credentials for client ${CLIENT.clientId} were refused with --client-auth ${given} but work with --client-auth ${works}: judging with ${given}, as given (a given --client-auth is never switched; give --client-auth ${works}, or leave it out to let the harness choose)`;

describe("an explicit --client-auth is binding", () => {
  it("contract --client-auth post against a Basic-only client: token.issued FAILs, exit 1, the preflight says what works", async ({
    basicOnly,
    tmpDir,
  }) => {
    const reports = path.join(tmpDir, "flag-post");
    const run = await runInProcess(
      contractCommand,
      [...targetArgs(basicOnly), "--client-auth", "post", "--only", ONLY, "--report-dir", reports],
      secretEnv,
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(NOTE("post", "basic"));
    expect(run.stderr).not.toContain("going on with");
    const r = await results(reports);
    expect(r.target.clientAuth).toBe("post");
    expect(statusOf(r, "token.issued")).toBe("FAIL");
    expect(`${run.stdout}${run.stderr}`).not.toContain(CLIENT.clientSecret);
  });

  it("given by EVENT_API_CLIENT_AUTH it binds the same way", async ({ basicOnly, tmpDir }) => {
    const reports = path.join(tmpDir, "variable-post");
    const run = await runInProcess(
      contractCommand,
      [...targetArgs(basicOnly), "--only", ONLY, "--report-dir", reports],
      { ...secretEnv, EVENT_API_CLIENT_AUTH: "post" },
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(NOTE("post", "basic"));
    expect(statusOf(await results(reports), "token.issued")).toBe("FAIL");
  });

  it("given by a config file's clientAuth it binds the same way", async ({ basicOnly, tmpDir }) => {
    const file = path.join(tmpDir, "harness.json");
    await writeFile(
      file,
      JSON.stringify({
        environments: {
          staging: {
            authUrl: basicOnly.authUrl,
            baseUrl: basicOnly.baseUrl,
            clientId: CLIENT.clientId,
            clientAuth: "post",
          },
        },
      }),
    );
    const reports = path.join(tmpDir, "config-post");
    const run = await runInProcess(
      contractCommand,
      ["--config", file, "-e", "staging", "--only", ONLY, "--report-dir", reports],
      secretEnv,
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(NOTE("post", "basic"));
    expect(statusOf(await results(reports), "token.issued")).toBe("FAIL");
  });

  it("contract --client-auth basic against a form-only client: token.issued FAILs, exit 1", async ({
    formOnly,
    tmpDir,
  }) => {
    const reports = path.join(tmpDir, "flag-basic");
    const run = await runInProcess(
      contractCommand,
      [...targetArgs(formOnly), "--client-auth", "basic", "--only", ONLY, "--report-dir", reports],
      secretEnv,
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(NOTE("basic", "post"));
    const r = await results(reports);
    expect(r.target.clientAuth).toBe("basic");
    expect(statusOf(r, "token.issued")).toBe("FAIL");
  });

  it("with --issuer, a --client-auth the metadata does not list stays binding too", async ({
    basicOnly,
    tmpDir,
  }) => {
    const issuer = await startMetadataServer({
      document: (_read, self) => metadataFor(self, basicOnly.tokenUrl, ["client_secret_basic"]),
    });
    try {
      const reports = path.join(tmpDir, "issuer-post");
      const run = await runInProcess(
        contractCommand,
        [
          "--issuer",
          issuer.issuer,
          "--base-url",
          basicOnly.baseUrl,
          "--client-id",
          CLIENT.clientId,
          "--client-auth",
          "post",
          "--only",
          ONLY,
          "--report-dir",
          reports,
        ],
        secretEnv,
      );
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toContain(NOTE("post", "basic"));
      expect(statusOf(await results(reports), "token.issued")).toBe("FAIL");
    } finally {
      await issuer.close();
    }
  });

  it("token --client-auth post against a Basic-only client: no token (exit 3), saying what would work", async ({
    basicOnly,
  }) => {
    const run = await runInProcess(
      tokenCommand,
      [...targetArgs(basicOnly), "--client-auth", "post"],
      secretEnv,
    );
    expect(run.code, run.stderr).toBe(3);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(
      `event-harness token: no token: the credentials for client ${CLIENT.clientId} were refused with --client-auth post but work with --client-auth basic: a given --client-auth is never switched; give --client-auth basic, or leave it out to let the harness choose`,
    );
  });

  it("load --client-auth post against a Basic-only client: could not run (exit 3), saying what would work", async ({
    basicOnly,
    tmpDir,
  }) => {
    const run = await runInProcess(
      loadCommand,
      [
        "sustained",
        ...targetArgs(basicOnly),
        "--client-auth",
        "post",
        "--duration",
        "2s",
        "--report-dir",
        path.join(tmpDir, "load-post"),
      ],
      secretEnv,
    );
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain("were refused with --client-auth post but work with --client-auth basic");
    expect(run.stderr).not.toContain("going on with");
  });

  it("run --client-auth post against a Basic-only client: the contract part FAILs, exit 1", async ({
    basicOnly,
    tmpDir,
  }) => {
    const reports = path.join(tmpDir, "run-post");
    const run = await runInProcess(
      runCommand,
      [...targetArgs(basicOnly), "--client-auth", "post", "--profile", "fast", "--report-dir", reports],
      secretEnv,
    );
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1);
    expect(run.stderr).toContain(NOTE("post", "basic"));
    const outcome = JSON.parse(await readFile(path.join(reports, "run.json"), "utf8")) as {
      target: { clientAuth: string };
    };
    expect(outcome.target.clientAuth).toBe("post");
    expect(statusOf(await results(path.join(reports, "contract")), "token.issued")).toBe("FAIL");
  });
});

describe("a defaulted client authentication may be switched", () => {
  it("contract without --client-auth against a Basic-only client goes on with basic and says so once", async ({
    basicOnly,
    tmpDir,
  }) => {
    const reports = path.join(tmpDir, "defaulted");
    const run = await runInProcess(
      contractCommand,
      [...targetArgs(basicOnly), "--only", ONLY, "--report-dir", reports],
      secretEnv,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      `event-harness: the credentials for client ${CLIENT.clientId} were refused with --client-auth post but work with --client-auth basic: going on with basic`,
    );
    const r = await results(reports);
    expect(r.target.clientAuth).toBe("basic");
    expect(statusOf(r, "token.issued")).toBe("PASS");
  });
});
