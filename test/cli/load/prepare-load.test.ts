import { access, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { CannotRunError, UsageError } from "../../../core/index.ts";
import { DIRECT } from "../../../transport/connection/index.ts";
import { Secret } from "../../../transport/index.ts";
import { describe, expect } from "../../support/fixtures.ts";
import { checkedLoad, loadPipelineTest } from "../../support/load-pipeline.ts";

// prepareLoad runs through the `prepare` fixture, which also closes what it started.
const it = loadPipelineTest;

async function refusal(attempt: Promise<unknown>): Promise<Error> {
  const error: unknown = await attempt.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

describe("prepareLoad", () => {
  it("readies a run against the embedded sandbox: report folder, bodies, bundle, plan and redaction", async ({
    tmpDir,
    prepare,
  }) => {
    const reportDir = path.join(tmpDir, "report");
    const { prepared, stderr } = await prepare(
      checkedLoad("sustained", { rate: "2", duration: "5s" }, { reportDir }),
    );
    expect(stderr).toBe("");
    expect(prepared.reportDir).toBe(reportDir);
    expect(prepared.runId).toMatch(/^sustained-\d{8}T\d{6}Z-[0-9a-f]{4}$/);
    expect(prepared.k6.version).toBe("v2.2.0");
    expect(prepared.sandbox).toBeDefined();
    expect(prepared.operator).toBe(false);
    // The sandbox's default lifetime, learnt by the preflight.
    expect(prepared.config.expiresInSeconds).toBe(5);
    expect(prepared.config).toMatchObject({ rate: 2, durationSeconds: 5, runId: prepared.runId });
    // 2 s of token warm-up, 5 s of load, 10 s of the scenario's slack and 120 s of the harness's.
    expect(prepared.maxSeconds).toBe(137);
    expect(prepared.targetRecord).toEqual({
      baseUrl: prepared.sandbox?.baseUrl,
      tokenUrl: prepared.sandbox?.tokenUrl,
      clientAuth: "post",
      insecure: false,
      embedded: true,
    });
    expect(prepared.bundleDir).toBe(reportDir);
    await access(prepared.script);
    expect(path.dirname(prepared.dataFile)).toBe(reportDir);
    expect(JSON.parse(await readFile(prepared.dataFile, "utf8"))).toBeTypeOf("object");
    const secret = prepared.sandbox?.clients[0]?.clientSecret as string;
    expect(prepared.redactor.redact(`said ${secret}`)).toBe("said <CLIENT_SECRET>");
    expect(prepared.reportNet.redact(`said ${secret}`)).toBe("said <CLIENT_SECRET>");
    expect(prepared.context).toMatchObject({ scenario: "sustained", runId: prepared.runId, warnings: [] });
  });

  it("refuses an --expires-margin of half the lifetime or more, before anything is written", async ({
    tmpDir,
    prepare,
  }) => {
    const reportDir = path.join(tmpDir, "report");
    const error = await refusal(
      prepare(checkedLoad("sustained", { "expires-margin": "2.5", duration: "5s" }, { reportDir })),
    );
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe("--expires-margin 2.5 leaves no room in expires_in 5s (keep it under half)");
    expect((await readdir(reportDir)).filter((name) => !name.startsWith("."))).toEqual([]);
  });

  it("stops on a target whose credentials are refused, as a run that cannot start", async ({
    tmpDir,
    prepare,
    sandbox,
  }) => {
    const api = await sandbox();
    const error = await refusal(
      prepare(
        checkedLoad(
          "sustained",
          { duration: "5s" },
          {
            reportDir: path.join(tmpDir, "report"),
            external: {
              tokenUrl: api.tokenUrl,
              baseUrl: api.baseUrl,
              clientId: api.clients[0]?.clientId as string,
              clientSecret: new Secret("not-the-secret-0123"),
              audience: api.baseUrl,
              clientAuth: "post",
              timeoutMs: 5000,
              connection: DIRECT,
              embedded: false,
            },
          },
        ),
      ),
    );
    expect(error).toBeInstanceOf(CannotRunError);
    expect(error.message).not.toContain("not-the-secret-0123");
  });

  it("writes for k6-operator without asking the target, bundling outside the report folder", async ({
    tmpDir,
    prepare,
  }) => {
    const operatorDir = path.join(tmpDir, "operator");
    const { prepared, stderr } = await prepare(
      checkedLoad(
        "sustained",
        { rate: "2", duration: "5s", instances: "2" },
        {
          operatorDir,
          expiresIn: 60,
          external: {
            // Nothing listens here: the manifests are written without contacting the target.
            tokenUrl: "http://127.0.0.1:9/oauth/token",
            baseUrl: "https://user:pw@api.example.com/v1",
            clientId: "cluster-client",
            clientSecret: new Secret("cluster-secret-0123"),
            audience: "https://api.example.com/v1",
            clientAuth: "basic",
            timeoutMs: 5000,
            connection: DIRECT,
            embedded: false,
          },
        },
      ),
    );
    expect(stderr).toContain("the pre-run token check is left out");
    expect(prepared.operator).toBe(true);
    expect(prepared.reportDir).toBe(operatorDir);
    expect(prepared.sandbox).toBeUndefined();
    expect(path.dirname(prepared.bundleDir)).toBe(tmpdir());
    expect(prepared.config).toMatchObject({ expiresInSeconds: 60, instances: 2, clientAuth: "basic" });
    expect(prepared.targetRecord).toEqual({
      baseUrl: "https://api.example.com/v1",
      tokenUrl: "http://127.0.0.1:9/oauth/token",
      clientAuth: "basic",
      insecure: false,
      embedded: false,
    });
    expect(prepared.redactor.redact("cluster-secret-0123")).toBe("<CLIENT_SECRET>");
  });
});
