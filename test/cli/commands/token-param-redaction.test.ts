import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Command } from "../../../cli/command.ts";
import { contractCommand } from "../../../cli/commands/contract.ts";
import { loadCommand } from "../../../cli/commands/load.ts";
import { runCommand } from "../../../cli/commands/run.ts";
import { startSandbox } from "../../../sandbox/index.ts";
import { startEchoServer } from "../../support/echo-server.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { runInProcess } from "../../support/run-in-process.ts";
import { filesWithContent, formsIn, secretForms } from "../../support/secret-forms.ts";
import { startTokenParamGate } from "../../support/token-param-gate.ts";

// --token-param values are often API keys or client assertions: no output may show one, however a target echoes it.
const CLIENT_ID = "param-client";
const SECRET = "param-client-secret-4d1e";
/** A client assertion-like value with the characters encoders treat specially. */
const VALUE = 'eyQ"as\\sert/é +%Zk=9';
const ONLY = "token.issued,token.wrong-secret-refused,events.accepted";

/** The value in each form a server or a report may write it. */
const FORMS: Record<string, string> = {
  raw: VALUE,
  json: JSON.stringify(VALUE).slice(1, -1),
  uri: encodeURIComponent(VALUE),
  form: new URLSearchParams({ v: VALUE }).toString().slice(2),
  base64: Buffer.from(VALUE).toString("base64"),
  base64url: Buffer.from(VALUE).toString("base64url"),
};

async function outputsOf(command: Command, dir: string, extra: readonly string[], clientId = CLIENT_ID) {
  // Every refusal starts with the value in each form, then quotes the form the server was sent.
  const server = await startEchoServer({
    clientId,
    secret: SECRET,
    echo: Object.values(FORMS).join(" "),
  });
  try {
    const run = await runInProcess(
      command,
      [
        "--auth-url",
        `${server.url}/auth`,
        "--base-url",
        `${server.url}/api`,
        "--client-id",
        clientId,
        "--token-param",
        `client_assertion=${VALUE}`,
        "--timeout",
        "5",
        ...extra,
        "--report-dir",
        dir,
      ],
      { EVENT_API_CLIENT_SECRET: SECRET },
    );
    const outputs = new Map<string, string>([
      ["stdout", run.stdout],
      ["stderr", run.stderr],
    ]);
    for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
      if (entry.isFile()) {
        const file = join(entry.parentPath, entry.name);
        outputs.set(file.slice(dir.length + 1), await readFile(file, "utf8"));
      }
    }
    return { code: run.code, outputs };
  } finally {
    await server.close();
  }
}

function leaks(outputs: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of outputs) {
    for (const [encoding, form] of Object.entries(FORMS)) {
      const written = [
        form,
        JSON.stringify(form).slice(1, -1),
        form.replaceAll("&", "&amp;").replaceAll('"', "&quot;"),
      ];
      if (written.some((needle) => text.includes(needle))) found.push(`${encoding} in ${file}`);
    }
  }
  return found;
}

describe("a --token-param value is redacted in every output, in every encoding", () => {
  it("contract: reports and console name the parameter, never its value", async ({ tmpDir }) => {
    const { code, outputs } = await outputsOf(contractCommand, tmpDir, ["--only", ONLY]);
    expect(code).toBe(1);
    for (const file of ["results.json", "junit.xml", "summary.md"])
      expect([...outputs.keys()]).toContain(file);
    expect(leaks(outputs)).toEqual([]);
    expect(outputs.get("results.json")).toContain("<TOKEN_PARAM:client_assertion>");
  });

  it("results.json's audience, scope and client id get the redaction its URLs get", async ({ tmpDir }) => {
    const { outputs } = await outputsOf(
      contractCommand,
      tmpDir,
      [
        "--only",
        "token.issued",
        "--audience",
        `https://api.example/${encodeURIComponent(VALUE)}`,
        "--scope",
        `read ${VALUE}`,
      ],
      `client-${VALUE}`,
    );
    const target = JSON.parse(outputs.get("results.json") ?? "{}").target;
    expect(target).toMatchObject({
      clientId: "client-<TOKEN_PARAM:client_assertion>",
      audience: "https://api.example/<TOKEN_PARAM:client_assertion>",
      scope: "read <TOKEN_PARAM:client_assertion>",
    });
    expect(leaks(outputs)).toEqual([]);
  });

  it("run: its preflight and every file of its report leave the value out too", async ({ tmpDir }) => {
    const { outputs } = await outputsOf(runCommand, tmpDir, ["--parts", "contract", "--profile", "fast"]);
    expect([...outputs.keys()].some((file) => file.endsWith("index.html"))).toBe(true);
    expect(leaks(outputs)).toEqual([]);
  });
});

describe("load hands k6 a --token-param value through its environment only", () => {
  it.each([
    ["one k6 process", []],
    ["--instances 2", ["--instances", "2"]],
  ])(
    "%s: the target gets the value, no file of the report holds it",
    async (name, extra) => {
      const sandbox = await startSandbox({
        port: 0,
        clients: [{ clientId: CLIENT_ID, clientSecret: SECRET }],
      });
      const gate = await startTokenParamGate({
        upstream: sandbox.baseUrl,
        name: "client_assertion",
        value: VALUE,
      });
      try {
        const dir = join(reports, `load ${name}`);
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
        await sandbox.close();
      }
    },
    120_000,
  );
});
