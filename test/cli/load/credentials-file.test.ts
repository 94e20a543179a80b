import { writeFile } from "node:fs/promises";
import path from "node:path";
import { readCredentialsFile } from "../../../cli/load/credentials-file.ts";
import { UsageError } from "../../../core/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

async function refusal(file: string): Promise<UsageError> {
  const error: unknown = await readCredentialsFile(file).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UsageError);
  expect((error as UsageError).code).toBe("invalid-config");
  return error as UsageError;
}

describe("readCredentialsFile", () => {
  it("reads a list of clients, snake_case or camelCase", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "clients.json");
    await writeFile(
      file,
      JSON.stringify([
        { client_id: "one", client_secret: "first-secret" },
        { clientId: "two", clientSecret: "second-secret" },
      ]),
    );
    expect(await readCredentialsFile(file)).toEqual([
      { clientId: "one", clientSecret: "first-secret" },
      { clientId: "two", clientSecret: "second-secret" },
    ]);
  });

  it("reads the clients of an object's `clients`, dropping any other field", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "clients.json");
    await writeFile(
      file,
      JSON.stringify({ clients: [{ client_id: "one", client_secret: "s", scope: "x" }], other: 1 }),
    );
    expect(await readCredentialsFile(file)).toEqual([{ clientId: "one", clientSecret: "s" }]);
  });

  it("refuses a file it cannot read, naming the file", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "absent.json");
    expect((await refusal(file)).message).toContain(`--credentials ${file} cannot be read`);
  });

  it("refuses what is not JSON without echoing its text", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "clients.json");
    await writeFile(file, '[{"client_id": "one", "client_secret": leaked-secret-value}]');
    const error = await refusal(file);
    expect(error.message).toBe(`--credentials ${file} is not valid JSON`);
  });

  it.for([
    ["an empty list", "[]"],
    ["an object without clients", '{"client_id":"one"}'],
    ["clients that are no list", '{"clients":{"client_id":"one"}}'],
    ["null", "null"],
    ["a number", "42"],
  ] as const)("refuses %s as listing no clients", async ([, text], { tmpDir }) => {
    const file = path.join(tmpDir, "clients.json");
    await writeFile(file, text);
    expect((await refusal(file)).message).toBe(`--credentials ${file} lists no clients`);
  });

  it.for([
    ["no secret", [{ client_id: "one", client_secret: "s" }, { client_id: "two" }], 1],
    ["an empty id", [{ client_id: "", client_secret: "s" }], 0],
    ["an empty secret", [{ client_id: "one", client_secret: "" }], 0],
    ["a secret that is no string", [{ client_id: "one", client_secret: 1234 }], 0],
    ["an entry that is null", [{ client_id: "one", client_secret: "s" }, null], 1],
  ] as const)(
    "refuses an entry with %s, naming its index and never a secret",
    async ([, list, index], { tmpDir }) => {
      const file = path.join(tmpDir, "clients.json");
      await writeFile(file, JSON.stringify(list));
      const error = await refusal(file);
      expect(error.message).toBe(`--credentials ${file}: entry ${index} needs client_id and client_secret`);
    },
  );
});
