import { contractCommand } from "../../../cli/commands/contract.ts";
import { decodedHits } from "../../support/decoded-oracle.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { filesUnder } from "../../support/report-texts.ts";
import { runCliInProcess, runInProcess } from "../../support/run-in-process.ts";

const CLIENT_ID = "basic-client";
/**
 * Secrets whose `id:secret` has each length modulo 3 (so each padding of its base64), one of them with characters
 * HTTP Basic form-encodes first (RFC 6749 §2.3.1).
 */
const SECRETS = ["Sx9kP2qL7mZ4vR8tW", "Sx9kP2qL7mZ4vR8tWa", "a/b+c d%e~f=g/h+i j"];
/** The checks that send a wrong secret or an unknown client, over Basic too, and the valid request beside them. */
const ONLY = "token.issued,token.wrong-secret-refused,token.unknown-client-refused,token.error-format";

/** The secret as Basic sends it (form-encoded) and as it is. */
function needles(secret: string): string[] {
  return [secret, new URLSearchParams({ v: secret }).toString().slice(2)];
}

function leaksIn(outputs: Map<string, string>, secret: string): string[] {
  return [...outputs].flatMap(([file, text]) =>
    decodedHits(text, needles(secret)).map((chain) => `${chain} in ${file}`),
  );
}

interface Evidence {
  readonly request: { readonly headers: Readonly<Record<string, string>>; readonly body?: string };
  readonly curl: string;
}

function evidenceOf(resultsJson: string | undefined): Evidence[] {
  const results = JSON.parse(resultsJson ?? "{}") as { checks: Array<{ evidence: Evidence[] }> };
  return results.checks.flatMap((check) => check.evidence);
}

describe("HTTP Basic credentials in what the harness shows", () => {
  for (const clientAuth of ["basic", "post"] as const) {
    for (const secret of SECRETS) {
      it(`contract --client-auth ${clientAuth}, a secret of ${secret.length} characters: in no output, in any encoding`, async ({
        sandbox,
        tmpDir,
      }) => {
        const target = await sandbox({ clients: [{ clientId: CLIENT_ID, clientSecret: secret }] });
        const run = await runInProcess(
          contractCommand,
          [
            "--auth-url",
            target.authUrl,
            "--base-url",
            target.baseUrl,
            "--client-id",
            CLIENT_ID,
            "--client-auth",
            clientAuth,
            "--only",
            ONLY,
            "--report-dir",
            tmpDir,
          ],
          { EVENT_API_CLIENT_SECRET: secret },
        );
        expect(run.code, run.stdout + run.stderr).toBe(0);
        const outputs = await filesUnder(tmpDir);
        outputs.set("stdout", run.stdout);
        outputs.set("stderr", run.stderr);
        for (const file of ["results.json", "junit.xml", "summary.md"])
          expect([...outputs.keys()]).toContain(file);
        expect(leaksIn(outputs, secret)).toEqual([]);

        const evidence = evidenceOf(outputs.get("results.json"));
        const basic = evidence.filter((item) => /^basic\b/i.test(item.request.headers.authorization ?? ""));
        // Both methods probe Basic: the configured one, or the other one the sandbox accepts.
        expect(basic.length).toBeGreaterThanOrEqual(3);
        for (const item of basic) {
          expect(item.request.headers.authorization).toBe("Basic <BASIC_CREDENTIALS>");
          expect(item.curl).toContain("'authorization: Basic <BASIC_CREDENTIALS>'");
        }
        // A wrong secret sent in the form is not the real one with something around it.
        for (const item of evidence) {
          const sent = new URLSearchParams(item.request.body ?? "").get("client_secret");
          if (sent !== null && sent !== "<CLIENT_SECRET>") expect(sent).not.toContain("<CLIENT_SECRET>");
        }
      });
    }
  }

  it("run --parts contract: index.html, summary.md, run.json and junit.xml hold no Basic credentials", async ({
    sandbox,
    tmpDir,
  }) => {
    const secret = SECRETS[0] as string;
    const target = await sandbox({ clients: [{ clientId: CLIENT_ID, clientSecret: secret }] });
    const run = await runCliInProcess(
      [
        "run",
        "--parts",
        "contract",
        "--profile",
        "fast",
        "--auth-url",
        target.authUrl,
        "--base-url",
        target.baseUrl,
        "--client-id",
        CLIENT_ID,
        "--client-auth",
        "basic",
        "--report-dir",
        tmpDir,
        "--quiet",
      ],
      { EVENT_API_CLIENT_SECRET: secret },
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const outputs = await filesUnder(tmpDir);
    outputs.set("stdout", run.stdout);
    outputs.set("stderr", run.stderr);
    const names = [...outputs.keys()];
    for (const file of ["index.html", "summary.md", "run.json", "junit.xml", "contract/results.json"]) {
      expect(
        names.some((name) => name.endsWith(file)),
        file,
      ).toBe(true);
    }
    expect(leaksIn(outputs, secret)).toEqual([]);
  });
});
