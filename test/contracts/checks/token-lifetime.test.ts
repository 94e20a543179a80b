import { vi } from "vitest";
import {
  earlyMarginSeconds,
  LIFETIME_CHECKS,
  lifetimeIdleExpires,
  lifetimeNoEarlyExpiry,
  lifetimeRenewal,
  lifetimeSliding,
} from "../../../contracts/checks/token-lifetime.ts";
import type { CheckDefinition, CheckResult } from "../../../contracts/index.ts";
import { executeCheck, lifetimeMarginSeconds, Probe } from "../../../contracts/index.ts";
import type { RunningSandbox } from "../../../sandbox/index.ts";
import { sandboxProbe } from "../../support/contract-checks.ts";
import { describe, expect, test } from "../../support/fixtures.ts";

/**
 * Time as the checks and the sandbox see it: the real clock plus what the probes have waited. A probe's sleep moves
 * it on at once, so a check that waits out a lifetime of seconds runs in the time its requests take.
 */
class VirtualTime {
  #skipped = 0;
  readonly #realNow: () => number;
  constructor(realNow: () => number) {
    this.#realNow = realNow;
  }
  now(): number {
    return this.#realNow() + this.#skipped;
  }
  skip(ms: number): void {
    this.#skipped += ms;
  }
}

// biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
const it = test.extend("time", async ({}, { onCleanup }) => {
  const realNow = Date.now.bind(Date);
  const time = new VirtualTime(realNow);
  const spy = vi.spyOn(Date, "now").mockImplementation(() => time.now());
  onCleanup(() => spy.mockRestore());
  return time;
});

/**
 * Runs `check` with a probe whose waits are skipped on `time`, against `sandbox`; `overshoot` stretches each wait as
 * a loaded machine's late timers do.
 */
async function runSkippingWaits(
  check: CheckDefinition,
  sandbox: RunningSandbox,
  time: VirtualTime,
  progress: string[] = [],
  overshoot = 1,
): Promise<CheckResult> {
  const probe = sandboxProbe(sandbox, {}, { progress: (message) => progress.push(message) });
  const skipping = new (class extends Probe {
    override async sleep(ms: number): Promise<void> {
      time.skip(ms * overshoot);
    }
  })({
    target: probe.target,
    redactor: probe.redactor,
    nextEvent: () => probe.newEvent(),
    eventBreakers: probe.eventBreakers,
    progress: (message) => progress.push(message),
  });
  return executeCheck(check, skipping);
}

describe("the lifetime margins", () => {
  it("give at least 2 s after expires_in, 10 % of a long one", () => {
    expect(lifetimeMarginSeconds(1)).toBe(2);
    expect(lifetimeMarginSeconds(20)).toBe(2);
    expect(lifetimeMarginSeconds(300)).toBe(30);
  });

  it("leave at least 1.5 s before expires_in, 10 % of a long one", () => {
    expect(earlyMarginSeconds(4)).toBe(1.5);
    expect(earlyMarginSeconds(15)).toBe(1.5);
    expect(earlyMarginSeconds(300)).toBe(30);
  });
});

describe("the lifetime checks, their waits skipped", () => {
  it("pass every one against the correct sandbox", async ({ sandbox, time }) => {
    const target = await sandbox({ expiresIn: 4, clock: time });
    const progress: string[] = [];
    const results = [];
    for (const check of LIFETIME_CHECKS) results.push(await runSkippingWaits(check, target, time, progress));
    expect(results.map((result) => [result.id, result.status, result.message])).toEqual([
      [
        "lifetime.sliding",
        "PASS",
        expect.stringMatching(
          /^used \d+ times over [\d.]+ s \(expires_in 4 s\), never rejected; the last use was sent [\d.]+ s after the first use's answer$/,
        ),
      ],
      ["lifetime.idle-expires", "PASS", "rejected with 401 after 6.0 s idle (expires_in 4 s)"],
      ["lifetime.no-early-expiry", "PASS", "accepted after 2.5 s idle (expires_in 4 s)"],
      ["lifetime.renewal", "PASS", "the expired token got 401; a new token was accepted with 202"],
    ]);
    expect(progress).toContain("lifetime.sliding: 1 use so far: 6 s to go");
  });

  it("fails a lifetime fixed from issue, naming it", async ({ sandbox, time }) => {
    const result = await runSkippingWaits(
      lifetimeSliding,
      await sandbox({ expiresIn: 4, faults: ["expiry-fixed"], clock: time }),
      time,
    );
    expect(result.status).toBe("FAIL");
    expect(result.message).toMatch(
      /^a lifetime fixed from issue: rejected [\d.]+ s after the token was requested \(expires_in 4 s\), though used \d+ times and last only [\d.]+ m?s before; expires_in must count from the last use \(401 /,
    );
  });

  it("fails a token that never expires, one that expires early, and one that cannot be renewed", async ({
    sandbox,
    time,
  }) => {
    const never = await sandbox({ expiresIn: 4, faults: ["expiry-never"], clock: time });
    const idle = await runSkippingWaits(lifetimeIdleExpires, never, time);
    expect(idle.status).toBe("FAIL");
    expect(idle.message).toMatch(
      /^expected a rejection after 6\.0 s idle \(expires_in 4 s\), but it was accepted: 202 /,
    );
    const renewal = await runSkippingWaits(lifetimeRenewal, never, time);
    expect(renewal.status).toBe("SKIP");
    expect(renewal.message).toBe(
      "the token did not expire, so renewal cannot be tested (see lifetime.idle-expires)",
    );

    const early = await sandbox({ expiresIn: 4, faults: ["expiry-early"], clock: time });
    const noEarly = await runSkippingWaits(lifetimeNoEarlyExpiry, early, time);
    expect(noEarly.status).toBe("FAIL");
    expect(noEarly.message).toMatch(
      /^expected the token to work after 2\.5 s idle \(expires_in 4 s\), received 401 /,
    );

    const stuck = await sandbox({ expiresIn: 4, faults: ["expiry-no-renewal"], clock: time });
    const renewed = await runSkippingWaits(lifetimeRenewal, stuck, time);
    expect(renewed.status).toBe("FAIL");
    expect(renewed.message).toMatch(/^expected the new token to be accepted, received 401 /);
  });

  it("cannot decide, never fails, when a late wait may have let the token idle for expires_in", async ({
    sandbox,
    time,
  }) => {
    const early = await sandbox({ expiresIn: 4, faults: ["expiry-early"], clock: time });
    // The 2.5 s wait overshoots to 4 s, so the refusal may be the lifetime's own end.
    const result = await runSkippingWaits(lifetimeNoEarlyExpiry, early, time, [], 2);
    expect(result.status).toBe("ERROR");
    expect(result.message).toMatch(
      /^could not decide: the token was refused, but the exchanges took so long that it may have been idle for 4\.\d s on the server \(expires_in 4 s\): too slow to tell early expiry from a slow machine$/,
    );
  });

  it("SKIPs every check when the token response has no usable expires_in", async ({ sandbox, time }) => {
    const target = await sandbox({ faults: ["token-missing-expires-in"], clock: time });
    for (const check of LIFETIME_CHECKS) {
      const result = await runSkippingWaits(check, target, time);
      expect(result.status, check.id).toBe("SKIP");
      expect(result.message).toBe("the token response has no usable expires_in (see token.response-schema)");
    }
  });
});

describe("the lifetime checks and the run's deadline", () => {
  it("cannot decide when the run cannot last the wait, before the first use", async ({ sandbox }) => {
    const target = await sandbox({ expiresIn: 300 });
    let asked = 0;
    const probe = sandboxProbe(
      target,
      {},
      {
        reserveUntil: () => {
          asked += 1;
          return "the run would need 6 min, past its deadline of 1 min (--run-timeout)";
        },
      },
    );
    const result = await executeCheck(lifetimeIdleExpires, probe);
    expect(result.status).toBe("ERROR");
    expect(result.message).toBe(
      "could not decide: expires_in 300 s means waiting about 5 min 30 s for this check: the run would need 6 min, past its deadline of 1 min (--run-timeout)",
    );
    // Only the token was asked for: the first use waits for the deadline's answer.
    expect(probe.evidence.map((evidence) => evidence.label)).toEqual(["obtain an access token"]);
    expect(asked).toBe(1);
  });
});
