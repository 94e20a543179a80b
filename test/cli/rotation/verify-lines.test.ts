import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { verifyLines } from "../../../cli/rotation/verify-lines.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

/** The words a POSIX shell reads from a printed command: the shell itself is the oracle, not our quoting. */
function shellWords(command: string, cwd: string): string[] {
  const out = execFileSync("sh", ["-c", 'eval "set -- $1"; printf "%s\\0" "$@"', "sh", command], {
    encoding: "utf8",
    cwd,
  });
  return out.split("\0").slice(0, -1);
}

const rotation = {
  base: "http://127.0.0.1:8080/auth",
  clientId: "it's a client",
  insecure: false,
  newSecretFile: undefined,
  kept: undefined,
  expectOld: "refused",
  expectOldTokens: "valid",
} as const;

function commandOf(line: string | undefined): string {
  expect(line).toMatch(/^Verify with: /);
  return (line ?? "").slice("Verify with: ".length);
}

describe("verifyLines", () => {
  it("only names the command when the base URL is not the sandbox's auth URL", () => {
    expect(verifyLines({ ...rotation, base: "https://idp.example/realms/x" })).toEqual([
      "Verify with event-harness verify-rotation, giving --base-url the sandbox's API base URL.",
    ]);
  });

  it("without a secret file: the sandbox's URLs, the client as the shell reads it, and what goes unchecked", ({
    tmpDir,
  }) => {
    const lines = verifyLines({ ...rotation, insecure: true });
    expect(lines).toHaveLength(3);
    expect(shellWords(commandOf(lines[0]), tmpDir)).toEqual([
      "event-harness",
      "verify-rotation",
      "--expect-old",
      "refused",
      "--auth-url",
      "http://127.0.0.1:8080/auth",
      "--base-url",
      "http://127.0.0.1:8080/api",
      "--client-id",
      "it's a client",
      "--insecure",
    ]);
    expect(lines[1]).toContain("earlier tokens are not checked");
    expect(lines[2]).toMatch(
      /EVENT_API_OLD_ACCESS_TOKEN=\$\(event-harness token .*--client-id 'it'\\''s a client' --insecure\)\)$/,
    );
  });

  it("with the secret file and what was kept: one runnable command that reads every secret from its file", async ({
    tmpDir,
  }) => {
    const newSecretFile = path.join(tmpDir, "new secret");
    await writeFile(newSecretFile, "the-new-secret");
    const lines = verifyLines({
      ...rotation,
      clientId: "ci",
      newSecretFile,
      kept: { oldSecretFile: path.join(tmpDir, "old-secret"), oldTokenFile: path.join(tmpDir, "old-token") },
      expectOld: "accepted",
      expectOldTokens: "revoked",
    });
    expect(lines).toHaveLength(1);
    const words = shellWords(commandOf(lines[0]), tmpDir);
    // The shell's own `cat` read the file the command names.
    expect(words[0]).toBe("EVENT_API_CLIENT_SECRET=the-new-secret");
    expect(words.slice(1, 11)).toEqual([
      "event-harness",
      "verify-rotation",
      "--old-secret-file",
      expect.stringMatching(/old-secret$/),
      "--old-token-file",
      expect.stringMatching(/old-token$/),
      "--expect-old",
      "accepted",
      "--expect-old-tokens",
      "revoked",
    ]);
    expect(lines[0]).not.toContain("the-new-secret");
  });

  it("with a secret file but nothing kept: the new secret only, and why the rest is not checked", async ({
    tmpDir,
  }) => {
    const newSecretFile = path.join(tmpDir, "s");
    await writeFile(newSecretFile, "n");
    const lines = verifyLines({ ...rotation, clientId: "ci", newSecretFile });
    expect(lines).toHaveLength(3);
    const words = shellWords(commandOf(lines[0]), tmpDir);
    expect(words[0]).toBe("EVENT_API_CLIENT_SECRET=n");
    expect(words).not.toContain("--expect-old");
    expect(lines[1]).toContain("the old secret and earlier tokens are not checked");
  });
});
