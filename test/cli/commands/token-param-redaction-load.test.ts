import { join } from "node:path";
import { loadCommand } from "../../../cli/commands/load.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { runInProcess } from "../../support/run-in-process.ts";
import { filesWithContent, formsIn, secretForms } from "../../support/secret-forms.ts";
import { startTokenParamGate } from "../../support/token-param-gate.ts";

// A --token-param value is often an API key or a client assertion: k6 gets it from its environment, never a file.
const CLIENT_ID = "param-client";
const SECRET = "param-client-secret-4d1e";
/** A client assertion-like value with the characters encoders treat specially. */
const VALUE = 'eyQ"as\\sert/é +%Zk=9';

describe("load hands k6 a --token-param value through its environment only", () => {
  it.for([
    ["one k6 process", []],
    ["--instances 2", ["--instances", "2"]],
  ] as const)(
    "%s: the target gets the value, no file of the report holds it",
    { timeout: 120_000 },
    async ([name, extra], { tmpDir, sandbox: start }) => {
      const sandbox = await start({ clients: [{ clientId: CLIENT_ID, clientSecret: SECRET }] });
      const gate = await startTokenParamGate({
        upstream: sandbox.baseUrl,
        name: "client_assertion",
        value: VALUE,
      });
      try {
        const dir = join(tmpDir, `load ${name}`);
        const run = await runInProcess(
          loadCommand,
          [
            "sustained",
            "--rate",
            "5",
            "--duration",
            "2s",
            "--quiet",
            ...extra,
            "--auth-url",
            gate.authUrl,
            "--base-url",
            gate.baseUrl,
            "--audience",
            sandbox.baseUrl,
            "--client-id",
            CLIENT_ID,
            "--token-param",
            `client_assertion=${VALUE}`,
            "--report-dir",
            dir,
          ],
          {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            EVENT_API_CLIENT_SECRET: SECRET,
            ...(process.env.K6_BIN ? { K6_BIN: process.env.K6_BIN } : {}),
          },
        );
        expect(run.code, run.stderr).toBe(0);
        expect(gate.seen.carried).toBeGreaterThan(0);
        expect(gate.seen.refused).toBe(0);
        const forms = secretForms(VALUE);
        const files = await filesWithContent(dir);
        expect([...files.keys()]).toEqual(expect.arrayContaining(["run.json", "summary.json"]));
        expect([...files.keys()].some((file) => file.endsWith("k6-options.json"))).toBe(true);
        const leaks = [
          ...formsIn(Buffer.from(run.stdout), forms, "stdout"),
          ...formsIn(Buffer.from(run.stderr), forms, "stderr"),
          ...[...files].flatMap(([file, content]) => formsIn(content, forms, file)),
        ];
        expect(leaks).toEqual([]);
      } finally {
        await gate.close();
      }
    },
  );
});
