import { ALL_CHECKS, DIRECT, executeCheck, Probe, Redactor, Secret } from "../../../contracts/index.ts";
import { RunDeadline } from "../../../transport/deadline/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

const SLIDING_EXPIRY_CHECKS = ALL_CHECKS.filter((check) => check.area === "lifetime");

/**
 * A probe whose run was given 4 s (--run-timeout) and started 10 s ago: start-up on a busy machine ate the whole
 * deadline, so nothing can be sent any more. Its target listens nowhere (port 9): any request would be "not sent".
 */
function lateProbe(knownExpiresIn: number | undefined): { probe: Probe; deadline: RunDeadline } {
  const deadline = new RunDeadline({ startedAt: Date.now() - 10_000, budgetMs: 4_000, fixed: true });
  const probe = new Probe({
    target: {
      tokenUrl: "http://127.0.0.1:9/auth/oauth/token",
      baseUrl: "http://127.0.0.1:9/api",
      clientId: "late",
      clientSecret: new Secret("late-secret"),
      clientAuth: "post",
      connection: DIRECT,
      timeoutMs: 10_000,
      embedded: true,
    },
    redactor: new Redactor(),
    nextEvent: () => ({}),
    eventBreakers: [],
    signal: AbortSignal.abort(new Error("the run's deadline of 4.0 s (--run-timeout) expired")),
    reserveUntil: (at, needed) => deadline.reserve(at, needed),
    ...(knownExpiresIn === undefined
      ? {}
      : { knownLifetime: { expiresIn: knownExpiresIn, source: "the embedded sandbox's setting" } }),
  });
  return { probe, deadline };
}

describe("a sliding-expiry probe with the target's expires_in known before the run", () => {
  it("is refused by the deadline it cannot fit before it sends anything, however late it starts", async () => {
    expect(SLIDING_EXPIRY_CHECKS.map((check) => check.id)).toContain("lifetime.sliding");
    for (const check of SLIDING_EXPIRY_CHECKS) {
      const { probe, deadline } = lateProbe(5);
      const result = await executeCheck(check, probe);
      deadline.dispose();
      expect(result.status, check.id).toBe("ERROR");
      expect(result.message).toMatch(
        /^could not decide: expires_in 5 s means waiting about 7\.0 s for this check: the run would need .+, past its deadline of 4\.0 s \(--run-timeout\); that expires_in is the embedded sandbox's setting, known before any request$/,
      );
      expect(probe.evidence).toEqual([]);
    }
  });

  it("without it, learns expires_in from a token, so a deadline already gone leaves it unsent", async () => {
    const { probe, deadline } = lateProbe(undefined);
    const [check] = SLIDING_EXPIRY_CHECKS;
    if (check === undefined) throw new Error("no sliding-expiry check");
    const result = await executeCheck(check, probe);
    deadline.dispose();
    expect(result.status).toBe("ERROR");
    expect(result.message).toContain("not sent: the run's deadline of 4.0 s (--run-timeout) expired");
  });
});
