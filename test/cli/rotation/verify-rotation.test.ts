import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { verifyRotation } from "../../../cli/rotation/index.ts";
import { capturedIo } from "../../support/command-io.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { filesWithContent, formsIn, secretForms } from "../../support/secret-forms.ts";
import { usageRefusal } from "../../support/usage-refusal.ts";

interface Results {
  readonly suite: string;
  readonly verdict: string;
  readonly target: { readonly embedded: boolean };
  readonly checks: ReadonlyArray<{ readonly id: string; readonly status: string }>;
}

async function results(dir: string): Promise<{ text: string; parsed: Results }> {
  const text = await readFile(path.join(dir, "results.json"), "utf8");
  return { text, parsed: JSON.parse(text) as Results };
}

describe("verifyRotation against the embedded sandbox", () => {
  it("rotates as asked, then judges and reports the rotation", async ({ tmpDir }) => {
    const { io, stdout: out, stderr: err } = capturedIo();
    const code = await verifyRotation(
      {
        "sandbox-overlap": "30",
        "sandbox-revoke": true,
        "expect-old": "accepted",
        "expect-old-tokens": "revoked",
        "report-dir": tmpDir,
      },
      io,
    );
    expect(code, err()).toBe(0);
    expect(err()).toContain(
      "Rotated the embedded sandbox's secret (old secret accepted for 30 s, earlier tokens revoked).\n",
    );
    expect(out()).toMatch(/PASS +rotation\.old-secret /);
    const { parsed } = await results(tmpDir);
    expect(parsed.suite).toBe("verify-rotation");
    expect(parsed.target.embedded).toBe(true);
    expect(parsed.checks.map((check) => [check.id, check.status])).toEqual([
      ["rotation.new-secret", "PASS"],
      ["rotation.old-secret", "PASS"],
      ["rotation.old-tokens", "PASS"],
    ]);
  });

  it("refuses an unknown expectation and a target's inputs, before the sandbox starts", async ({
    tmpDir,
  }) => {
    const { io } = capturedIo();
    const unknown = await usageRefusal(verifyRotation({ "expect-old": "maybe", "report-dir": tmpDir }, io));
    expect(unknown.message).toBe("--expect-old takes one of refused, accepted, got 'maybe'");
    const file = path.join(tmpDir, "old-secret");
    await writeFile(file, "old\n");
    const targetOnly = await usageRefusal(
      verifyRotation({ "old-secret-file": file, "report-dir": path.join(tmpDir, "r") }, io),
    );
    expect(targetOnly.code).toBe("invalid-config");
    expect(targetOnly.message).toMatch(/^--old-secret-file and --old-token-file apply to a target/);
  });
});

describe("verifyRotation against a target", () => {
  it("checks the old secret the user gives, and hides it and the new one in every report", async ({
    sandbox,
    targetEnv,
    tmpDir,
  }) => {
    const running = await sandbox();
    const before = running.clients[0];
    if (before === undefined) throw new Error("the sandbox has no client");
    const oldSecret = before.clientSecret;
    await running.rotateSecret(before.clientId, { overlapSeconds: 0 });
    const env: NodeJS.ProcessEnv = { ...targetEnv(running), EVENT_API_OLD_CLIENT_SECRET: oldSecret };
    const newSecret = env.EVENT_API_CLIENT_SECRET ?? "";
    expect(newSecret).not.toBe(oldSecret);
    const { io, stderr: err } = capturedIo(env);
    const code = await verifyRotation({ "expect-old": "refused", "report-dir": tmpDir }, io);
    expect(code, err()).toBe(0);
    const { text, parsed } = await results(tmpDir);
    expect(parsed.target.embedded).toBe(false);
    expect(parsed.checks.find((check) => check.id === "rotation.old-secret")?.status).toBe("PASS");
    // The old-tokens check has no token to judge: not a pass.
    expect(parsed.checks.find((check) => check.id === "rotation.old-tokens")?.status).toBe("SKIP");
    expect(text).toContain("<CLIENT_SECRET>");
    const leaks: string[] = [];
    for (const [file, content] of await filesWithContent(tmpDir)) {
      for (const secret of [oldSecret, newSecret]) leaks.push(...formsIn(content, secretForms(secret), file));
    }
    expect(leaks).toEqual([]);
  });

  it("refuses the embedded sandbox's switches and an expectation without its input", async ({
    sandbox,
    targetEnv,
    tmpDir,
  }) => {
    const { io } = capturedIo(targetEnv(await sandbox()));
    const switches = await usageRefusal(
      verifyRotation({ "sandbox-revoke": true, "report-dir": path.join(tmpDir, "a") }, io),
    );
    expect(switches.message).toBe(
      "--sandbox-overlap and --sandbox-revoke apply only to the embedded sandbox",
    );
    const missing = await usageRefusal(
      verifyRotation({ "expect-old-tokens": "valid", "report-dir": path.join(tmpDir, "b") }, io),
    );
    expect(missing.code).toBe("missing-argument");
    expect(missing.message).toBe(
      "--expect-old-tokens valid needs a token obtained before the rotation (EVENT_API_OLD_ACCESS_TOKEN or --old-token-file FILE)",
    );
  });
});
