import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import { writeOpenapi } from "../../../cli/openapi/write-openapi.ts";
import { UsageError } from "../../../core/index.ts";
import { capturedIo } from "../../support/command-io.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

interface Document {
  servers: { url: string }[];
  paths: Record<string, { servers?: { url: string }[] }>;
  components: {
    schemas: { Event: { required: string[] } };
    securitySchemes: { oauth2: { flows: { clientCredentials: { tokenUrl: string } } } };
  };
}

async function documentFor(options: Parameters<typeof writeOpenapi>[0], env: NodeJS.ProcessEnv = {}) {
  const run = capturedIo(env);
  expect(await writeOpenapi(options, run.io)).toBe(0);
  expect(run.stderr()).toBe("");
  return JSON.parse(run.stdout()) as Document;
}

async function refusal(options: Parameters<typeof writeOpenapi>[0], env: NodeJS.ProcessEnv = {}) {
  const error: unknown = await writeOpenapi(options, capturedIo(env).io).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UsageError);
  return error as UsageError;
}

function standalone(text: string) {
  const schema = JSON.parse(text) as Record<string, unknown>;
  expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
  return new Ajv2020({ strict: true, validateFormats: false }).compile(schema);
}

const complete = {
  type: "checkout",
  customer: { email: "a@example.com" },
  channel: { id: "chl-web" },
  transaction: { reference: "r-1", date: "2026-01-01T00:00:00.000Z" },
  system: "shop",
  systemVersion: "1.0",
};

describe("writeOpenapi", () => {
  it("writes a valid OpenAPI document at production strictness, with placeholder servers", async () => {
    const document = await documentFor({});
    const result = await new Validator().validate(document as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(document.servers[0]?.url).toBe("{base_url}");
    expect(document.components.schemas.Event.required).toEqual([
      "type",
      "customer",
      "channel",
      "transaction",
    ]);
  });

  it("names the servers from the options, or from the environment, with no trailing slash", async () => {
    const fromOptions = await documentFor({
      "auth-url": "https://auth.example.org/",
      "base-url": "https://api.example.org/v1/",
    });
    expect(fromOptions.servers[0]?.url).toBe("https://api.example.org/v1");
    expect(fromOptions.components.securitySchemes.oauth2.flows.clientCredentials.tokenUrl).toBe(
      "https://auth.example.org/oauth/token",
    );
    const fromEnv = await documentFor(
      {},
      {
        EVENT_API_TOKEN_URL: " https://sso.example.org/realms/r/token ",
        EVENT_API_BASE_URL: "   ",
      },
    );
    expect(fromEnv.components.securitySchemes.oauth2.flows.clientCredentials.tokenUrl).toBe(
      "https://sso.example.org/realms/r/token",
    );
    expect(fromEnv.paths["/realms/r/token"]?.servers?.[0]?.url).toBe("https://sso.example.org");
    // A blank variable is no address: the placeholder stays.
    expect(fromEnv.servers[0]?.url).toBe("{base_url}");
  });

  it("prefers an option to its variable", async () => {
    const document = await documentFor(
      { "base-url": "https://flag.example.org" },
      { EVENT_API_BASE_URL: "https://env.example.org" },
    );
    expect(document.servers[0]?.url).toBe("https://flag.example.org");
  });

  it("writes the event schema alone at the strictness asked, which ajv applies", async () => {
    const lenient = capturedIo();
    await writeOpenapi({ schema: "event", strictness: "lenient" }, lenient.io);
    expect(standalone(lenient.stdout())({})).toBe(true);
    const strict = capturedIo();
    await writeOpenapi({ schema: "event", strictness: "complete" }, strict.io);
    const validate = standalone(strict.stdout());
    expect(validate(complete)).toBe(true);
    const { systemVersion: _, ...withoutVersion } = complete;
    expect(validate(withoutVersion)).toBe(false);
  });

  it("writes the token response schema alone", async () => {
    const run = capturedIo();
    await writeOpenapi({ schema: "token-response" }, run.io);
    const validate = standalone(run.stdout());
    expect(validate({ access_token: "t", token_type: "Bearer", expires_in: 300 })).toBe(true);
    expect(validate({ access_token: "t", token_type: "Bearer" })).toBe(false);
  });

  it("writes --out whole, replacing an earlier file, and names it on stderr", async ({ tmpDir }) => {
    const out = path.join(tmpDir, "openapi.json");
    await writeFile(out, "earlier");
    const run = capturedIo();
    expect(await writeOpenapi({ out, strictness: "lenient" }, run.io)).toBe(0);
    expect(run.stdout()).toBe("");
    expect(run.stderr()).toBe(`event-harness openapi: wrote ${out}\n`);
    const written = JSON.parse(await readFile(out, "utf8")) as Document;
    // Lenient: the request body requires no field.
    expect(written.components.schemas.Event.required ?? []).toEqual([]);
    expect(await readdir(tmpDir)).toEqual(["openapi.json"]);
  });

  it("treats --out - as stdout", async () => {
    const run = capturedIo();
    await writeOpenapi({ out: "-", schema: "token-response" }, run.io);
    expect(standalone(run.stdout())).toBeTypeOf("function");
  });

  it("refuses a folder or a path under a file as --out, leaving nothing behind", async ({ tmpDir }) => {
    const folder = path.join(tmpDir, "folder");
    await mkdir(folder);
    const intoFolder = await refusal({ out: folder });
    expect(intoFolder.code).toBe("invalid-value");
    expect(intoFolder.message).toContain(`--out cannot write ${folder}`);
    await writeFile(path.join(tmpDir, "plain"), "x");
    expect((await refusal({ out: path.join(tmpDir, "plain", "openapi.json") })).code).toBe("invalid-value");
    expect((await readdir(tmpDir)).sort()).toEqual(["folder", "plain"]);
    expect(await readdir(folder)).toEqual([]);
  });

  it("refuses unknown choices, naming them", async () => {
    expect((await refusal({ schema: "event-lenient" })).message).toBe(
      "--schema takes one of event, token-response, got 'event-lenient'",
    );
    expect((await refusal({ strictness: "strict" })).message).toBe(
      "--strictness takes one of complete, production, lenient, got 'strict'",
    );
  });

  it("refuses an address with userinfo, from a variable too, without quoting it", async () => {
    const error = await refusal({}, { EVENT_API_AUTH_URL: "https://user:pa55word@auth.example.org" });
    expect(error.code).toBe("invalid-config");
    expect(error.message).toBe("--auth-url must not carry a user name or password");
    expect((await refusal({ "base-url": "https://user@api.example.org" })).message).toBe(
      "--base-url must not carry a user name or password",
    );
  });

  it("refuses both token addresses, and a token URL on the events path", async () => {
    expect(
      (
        await refusal(
          { "auth-url": "https://a.example.org" },
          { EVENT_API_TOKEN_URL: "https://a.example.org/t" },
        )
      ).message,
    ).toContain("not both");
    expect((await refusal({ "token-url": "https://a.example.org/events" })).message).toBe(
      "--token-url must not end in /events: that is the events path",
    );
    expect((await refusal({ "token-url": "https://a.example.org/events/" })).code).toBe("invalid-config");
  });
});
