import { afterEach, describe, expect, it } from "vitest";
import { runContract } from "../../../cli/contract/run-contract.ts";
import type { CheckResult } from "../../../contracts/index.ts";
import type { FaultName, RunningSandbox } from "../../../sandbox/index.ts";
import { startSandbox } from "../../../sandbox/index.ts";
import { sandboxContractSettings } from "../../support/sandbox-contract-settings.ts";

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** Some checks (the token response's by default), against a sandbox with the given faults. */
async function tokenChecks(
  faults: FaultName[],
  only: string[] = ["token.response-schema", "token.example-fields", "token.no-store"],
): Promise<Map<string, CheckResult>> {
  sandbox = await startSandbox({ port: 0, expiresIn: 5, faults });
  const results = await runContract(
    sandboxContractSettings(
      sandbox,
      { profile: "fast", only, seed: 7, runId: `token-response-${faults.join("-") || "none"}` },
      { embedded: true },
    ),
  );
  return new Map(results.map((result) => [result.id, result]));
}

describe("the token response checks", () => {
  it("a response with the spec's rule fields and none of its example's passes the MUST and warns on the example", async () => {
    const results = await tokenChecks(["token-no-example-fields"]);
    expect(results.get("token.response-schema")?.status).toBe("PASS");
    const example = results.get("token.example-fields");
    expect(example?.status).toBe("WARN");
    expect(example?.level).toBe("SHOULD");
    expect(example?.message).toBe(
      "refresh_expires_in and not-before-policy, fields of the spec's example response (Keycloak), are absent",
    );
  });

  it("says in words which rule field is missing or wrong, without zod's wording", async () => {
    const missing = (await tokenChecks(["token-missing-expires-in"])).get("token.response-schema");
    expect(missing?.status).toBe("FAIL");
    expect(missing?.message).toBe(
      "expected the token response the spec's rules require, but expires_in (the lifetime in seconds) is absent",
    );
    await sandbox?.close();
    const text = (await tokenChecks(["token-string-expires-in", "token-type-mac"])).get(
      "token.response-schema",
    );
    expect(text?.status).toBe("FAIL");
    expect(text?.message).toBe(
      'expected the token response the spec\'s rules require, but token_type is "mac", not Bearer (any case); expires_in is a string ("5"), not a number of seconds',
    );
    expect(text?.message).not.toMatch(/Invalid input|received undefined/);
  });

  it("an absent header reads absent", async () => {
    const results = await tokenChecks(["token-no-cache-headers"]);
    expect(results.get("token.no-store")?.message).toBe(
      "expected Cache-Control: no-store (absent) and Pragma: no-cache (absent)",
    );
  });

  it("the correct sandbox passes all three", async () => {
    const results = await tokenChecks([]);
    expect([...results.values()].map((result) => [result.id, result.status])).toEqual([
      ["token.response-schema", "PASS"],
      ["token.example-fields", "PASS"],
      ["token.no-store", "PASS"],
    ]);
  });
});

describe("events.stored", () => {
  it("SKIPs an API without a GET /events/{ref} route, naming why", async () => {
    const stored = (await tokenChecks(["events-no-read-route"], ["events.stored"])).get("events.stored");
    expect(stored?.status).toBe("SKIP");
    expect(stored?.message).toMatch(
      /^no such route: the acknowledged event's 404 is the 404 of a path no API serves \(the target offers no GET \/events\/\{ref\}\)$/,
    );
  });

  it("WARNs when the route answers but the acknowledged event is not found", async () => {
    const stored = (await tokenChecks(["events-not-stored"], ["events.stored"])).get("events.stored");
    expect(stored?.status).toBe("WARN");
    expect(stored?.message).toMatch(
      /^acknowledged event not found: .* answered 404, where a path no API serves/,
    );
  });
});
