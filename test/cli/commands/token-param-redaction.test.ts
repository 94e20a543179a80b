import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Command } from "../../../cli/command.ts";
import { contractCommand } from "../../../cli/commands/contract.ts";
import { runCommand } from "../../../cli/commands/run.ts";
import { startEchoServer } from "../../support/echo-server.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { runInProcess } from "../../support/run-in-process.ts";

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
