import { afterEach, describe, expect, it } from "vitest";
import type { CheckResult } from "../../../contracts/index.ts";
import { ALL_CHECKS, DIRECT, executeCheck, Probe, Redactor, Secret } from "../../../contracts/index.ts";
import { createEventGenerator, INVALID_VARIANTS } from "../../../generators/index.ts";
import type { RunningSandbox } from "../../../sandbox/index.ts";
import { startSandbox } from "../../../sandbox/index.ts";

type EventBreakers = ConstructorParameters<typeof Probe>[0]["eventBreakers"];

const eventsInvalidRejected = ALL_CHECKS.find((check) => check.id === "events.invalid-rejected");

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** events.invalid-rejected against the embedded sandbox, with these breakers as the invalid variants to send. */
async function invalidRejected(eventBreakers: EventBreakers): Promise<CheckResult> {
  sandbox = await startSandbox({ port: 0 });
  const events = createEventGenerator({ seed: 3, runId: "breakers", referencePrefix: "eah-breakers-" });
  const probe = new Probe({
    target: {
      tokenUrl: sandbox.tokenUrl,
      baseUrl: sandbox.baseUrl,
      audience: sandbox.baseUrl,
      clientId: "sandbox-demo",
      clientSecret: new Secret("sandbox-demo-secret"),
      clientAuth: "post",
      connection: DIRECT,
      timeoutMs: 5_000,
      embedded: false,
    },
    redactor: new Redactor(),
    nextEvent: () => events.next(),
    eventBreakers,
  });
  if (eventsInvalidRejected === undefined) throw new Error("no check events.invalid-rejected");
  return executeCheck(eventsInvalidRejected, probe);
}

describe("events.invalid-rejected", () => {
  it("passes when the sandbox rejects every invalid variant", async () => {
    const result = await invalidRejected(INVALID_VARIANTS);
    expect(result.status, result.message).toBe("PASS");
    expect(result.message).toMatch(/^all \d+ invalid variants rejected/);
  });

  it("is SKIP, never PASS, when there is no invalid variant to send: it tested nothing", async () => {
    const result = await invalidRejected([]);
    expect(result.status, result.message).toBe("SKIP");
    expect(result.message).toContain("no invalid variant");
  });

  it("is SKIP when every breaker only breaks the complete event, which is no error to reject", async () => {
    const completeOnly = INVALID_VARIANTS.filter((variant) => variant.violates === "complete");
    expect(completeOnly.length).toBeGreaterThan(0);
    const result = await invalidRejected(completeOnly);
    expect(result.status, result.message).toBe("SKIP");
    expect(result.message).toContain("no invalid variant");
  });
});
