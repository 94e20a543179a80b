import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { runCli } from "../../support/run-cli.ts";
import { runCliInProcess } from "../../support/run-in-process.ts";

/** ajv's strict mode as a user runs it: no vocabulary added, so an unknown keyword is an error. */
function strictAjv() {
  return new Ajv2020({ strict: true, allErrors: true, validateFormats: false });
}

describe("openapi: schemas that validate under ajv strict mode", () => {
  // The real process path: the whole of a child's stdout must be the document.
  it("every schema of the document compiles with no keyword added", async () => {
    const run = await runCli(["openapi"]);
    expect(run.code).toBe(0);
    const document = JSON.parse(run.stdout) as {
      info: Record<string, unknown>;
      components: { schemas: Record<string, Record<string, unknown>> };
    };
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      expect(() => strictAjv().compile(schema), name).not.toThrow();
    }
    expect(document.info["x-event-harness-strictness"]).toBe("production");
  });

  it.each([
    ["event", { type: "checkout" }, false],
    ["token-response", { access_token: "t", token_type: "Bearer", expires_in: 300 }, true],
    ["token-response", { access_token: "t", token_type: "Bearer", expires_in: "300" }, false],
  ])(
    "--schema %s writes a standalone JSON Schema that ajv strict compiles and applies",
    async (name, value, valid) => {
      const run = await runCliInProcess(["openapi", "--schema", name]);
      expect(run.code).toBe(0);
      const schema = JSON.parse(run.stdout) as Record<string, unknown>;
      expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
      expect(strictAjv().compile(schema)(value)).toBe(valid);
    },
  );

  it("--schema with an unknown name is a usage error naming the choices", async () => {
    const run = await runCliInProcess(["openapi", "--schema", "nope"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--schema takes one of event, token-response");
  });
});
