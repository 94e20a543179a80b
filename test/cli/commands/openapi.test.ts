import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect } from "vitest";
import { openapiCommand } from "../../../cli/commands/openapi.ts";
import { it } from "../../support/fixtures.ts";
import { runInProcess } from "../../support/run-in-process.ts";

const SECRET = "s3cr3t-openapi-Value";

describe("event-harness openapi", () => {
  it("writes a valid OpenAPI 3.1 document to stdout, exit 0, nothing on stderr", async () => {
    const run = await runInProcess(openapiCommand, []);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const document = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(document.openapi).toMatch(/^3\.1\./);
    const result = await new Validator().validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it("takes the addresses from the environment like every target command, and never a credential", async () => {
    const tokenUrl = "https://sso.example.org/realms/business/protocol/openid-connect/token";
    const run = await runInProcess(openapiCommand, [], {
      EVENT_API_TOKEN_URL: tokenUrl,
      EVENT_API_BASE_URL: "https://api.example.org/",
      EVENT_API_CLIENT_ID: "release-check",
      EVENT_API_CLIENT_SECRET: SECRET,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`"tokenUrl": "${tokenUrl}"`);
    expect(run.stdout).toContain('"url": "https://api.example.org"');
    expect(run.stdout).not.toContain(SECRET);
    expect(run.stdout).not.toContain("release-check");
  });

  it("--out writes the file (creating folders) and names it on stderr; --strictness picks the required fields", async ({
    tmpDir: dir,
  }) => {
    const out = join(dir, "nested", "openapi.json");
    const run = await runInProcess(openapiCommand, ["--out", out, "--strictness", "complete"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`wrote ${out}`);
    const document = JSON.parse(await readFile(out, "utf8")) as {
      components: { schemas: { Event: { required: string[] } } };
    };
    expect(document.components.schemas.Event.required).toEqual([
      "type",
      "customer",
      "channel",
      "transaction",
      "system",
      "systemVersion",
    ]);
    expect(await readdir(join(dir, "nested"))).toEqual(["openapi.json"]);
  });

  it.each([
    [["--auth-url", "https://a.example.org", "--token-url", "https://a.example.org/t"], "not both"],
    [["--strictness", "strict"], "--strictness takes one of complete, production, lenient"],
    [["--base-url", "ftp://api.example.org"], "must use http or https"],
    [["--base-url", "https://user:pw@api.example.org"], "must not carry a user name or password"],
    [["--token-url", "https://a.example.org/events"], "that is the events path"],
    [["--out", "/"], "--out cannot write"],
    [["--format", "yaml"], "format"],
  ])("%j is a usage error (exit 2): %s", async (args, message) => {
    const run = await runInProcess(openapiCommand, args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(message);
    expect(run.stderr).not.toContain("pw@");
  });
});
