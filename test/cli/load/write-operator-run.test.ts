import { access, readdir } from "node:fs/promises";
import path from "node:path";
import { readOperatorPlan } from "../../../cli/load/operator-plan.ts";
import { writeOperatorRun } from "../../../cli/load/write-operator-run.ts";
import { CannotRunError } from "../../../core/index.ts";
import { DIRECT } from "../../../transport/connection/index.ts";
import { Secret } from "../../../transport/index.ts";
import { capturedIo } from "../../support/command-io.ts";
import { describe, expect } from "../../support/fixtures.ts";
import { checkedLoad, loadPipelineTest as it } from "../../support/load-pipeline.ts";

/** A k6-operator run of two runners against a target that is never contacted. */
function operatorRun(operatorDir: string) {
  return checkedLoad(
    "sustained",
    { rate: "2", duration: "5s", instances: "2" },
    {
      operatorDir,
      expiresIn: 60,
      external: {
        tokenUrl: "http://127.0.0.1:9/oauth/token",
        baseUrl: "https://api.example.com/v1",
        clientId: "cluster-client",
        clientSecret: new Secret("cluster-secret-0123"),
        audience: "https://api.example.com/v1",
        clientAuth: "post",
        timeoutMs: 5000,
        connection: DIRECT,
        embedded: false,
      },
    },
  );
}

describe("writeOperatorRun", () => {
  it("writes the archive, manifests and plan, names them, and removes the bundle folder", async ({
    tmpDir,
    prepare,
  }) => {
    const dir = path.join(tmpDir, "operator");
    const { prepared } = await prepare(operatorRun(dir));
    const out = capturedIo();
    expect(await writeOperatorRun(prepared, out.io)).toBe(0);
    await expect(access(prepared.bundleDir)).rejects.toThrow();
    expect(out.stderr()).toMatch(/^event-harness: .*, for k6-operator with 2 runner\(s\)\n$/);
    const [wrote, next] = out.stdout().split("\n");
    const files = (wrote ?? "").replace(/^Wrote /, "").split(", ");
    expect(files.map((file) => path.basename(file))).toContain("plan.json");
    expect(files.map((file) => path.basename(file))).toContain("configmap.json");
    for (const file of files) await access(path.resolve(file));
    expect(next).toMatch(/^Next: .*operator\/README\.md$/);
    expect((await readdir(path.join(dir, "manifests"))).sort()).toEqual([
      "configmap.json",
      "results-claim.json",
      "testrun.json",
    ]);
    // The plan load-merge reads back: the run's report context, for its two runners.
    const plan = await readOperatorPlan(path.join(dir, "plan.json"));
    expect(plan.parallelism).toBe(2);
    expect(plan.context).toMatchObject({
      scenario: "sustained",
      runId: prepared.runId,
      expiresInSeconds: 60,
    });
  });

  it("says when the archive is past a ConfigMap's 1 MiB, and leaves the ConfigMap out", async ({
    tmpDir,
    prepare,
  }) => {
    const dir = path.join(tmpDir, "operator");
    const { prepared } = await prepare(operatorRun(dir), { archive: { bytes: 1_572_864, exitCode: 0 } });
    const out = capturedIo();
    expect(await writeOperatorRun(prepared, out.io)).toBe(0);
    expect(out.stderr()).toContain(
      "event-harness: the archive is 1.50 MiB, over a ConfigMap's 1 MiB limit: the TestRun reads it from the results claim instead",
    );
    expect(await readdir(path.join(dir, "manifests"))).not.toContain("configmap.json");
    expect(out.stdout()).not.toContain("configmap.json");
  });

  it("removes the bundle folder when k6 archive fails too", async ({ tmpDir, prepare }) => {
    const { prepared } = await prepare(operatorRun(path.join(tmpDir, "operator")), {
      archive: { bytes: 0, exitCode: 1 },
    });
    const error: unknown = await writeOperatorRun(prepared, capturedIo().io).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(CannotRunError);
    expect((error as Error).message).toContain("k6 archive failed (exit 1)");
    await expect(access(prepared.bundleDir)).rejects.toThrow();
  });
});
