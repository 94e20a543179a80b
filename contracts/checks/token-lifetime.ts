import { countNoun, formatDuration, PrerequisiteError, UndecidableError } from "../../core/index.ts";
import { probeReserveMs } from "../../transport/deadline/index.ts";
import { isSuccess } from "../probe/http-request.ts";
import type { IssuedToken, KnownLifetime, Probe } from "../probe/probe.ts";
import type { Finding } from "./check.ts";
import { broken, defineCheck, holds, skipped } from "./check.ts";
import { describeResponse } from "./describe.ts";
import { describeRefusal, isRefusal, REFUSED_TOKEN } from "./refusal.ts";

/** Slack for clock granularity after expires_in: a token idle for expires_in + max(2 s, 10 %) must be refused. */
export function lifetimeMarginSeconds(expiresIn: number): number {
  return Math.max(2, expiresIn * 0.1);
}

/** Slack before expires_in, max(1.5 s, 10 %): a whole-second clock can make a token look up to 1 s older. */
export function earlyMarginSeconds(expiresIn: number): number {
  return Math.max(1.5, expiresIn * 0.1);
}

/** A server clock counting whole seconds can make a token look up to this much older than it is. */
const CLOCK_SLACK_SECONDS = 1;

/**
 * A refusal proves early expiry only if the token cannot have been idle for expires_in on the server, even with
 * the slowest reading of the exchanges' timing: from sending the previous use to receiving this answer. A busy
 * machine that stretched that window past expires_in makes the check ERROR, never a false FAIL.
 */
function refusalProvesEarlyExpiry(previousSentAt: number, answeredAt: number, expiresIn: number): void {
  const idleAtMostMs = answeredAt - previousSentAt;
  if (idleAtMostMs / 1000 + CLOCK_SLACK_SECONDS >= expiresIn) {
    throw new UndecidableError(
      `the token was refused, but the exchanges took so long that it may have been idle for ${formatDuration(idleAtMostMs)} ` +
        `on the server (expires_in ${expiresIn} s): too slow to tell early expiry from a slow machine`,
    );
  }
}

/** How often progress is reported while a probe waits. */
const PROGRESS_EVERY_MS = 2_000;

async function waitUntil(probe: Probe, deadline: number, what: string, horizon = deadline): Promise<void> {
  for (let left = deadline - Date.now(); left > 0; left = deadline - Date.now()) {
    probe.progress(`${what}: ${Math.ceil((horizon - Date.now()) / 1000)} s to go`);
    await probe.sleep(Math.min(left, PROGRESS_EVERY_MS), what);
  }
}

/**
 * Asks the run's deadline for a probe's wait on a token of `expiresIn`, and its last exchanges: waiting would only
 * end at the deadline when it cannot last that long, so the target's answer on expiry can never be seen in this run.
 */
function reserveWait(probe: Probe, expiresIn: number, known?: KnownLifetime): void {
  const waitMs = (expiresIn + lifetimeMarginSeconds(expiresIn)) * 1000;
  // The probe needs its wait and one last exchange at least; it asks for room for a few more.
  const now = Date.now();
  const refused = probe.reserveUntil(
    now + waitMs + probeReserveMs(probe.target.timeoutMs),
    now + waitMs + probe.target.timeoutMs,
  );
  if (refused !== undefined) {
    const whose = known === undefined ? "" : `; that expires_in is ${known.source}, known before any request`;
    throw new UndecidableError(
      `expires_in ${expiresIn} s means waiting about ${formatDuration(waitMs)} for this check: ${refused}${whose}`,
    );
  }
}

/**
 * A fresh token whose announced lifetime is usable, first used once so that "last use" is a known instant. The
 * run's deadline is stretched to this probe's horizon once the token's expires_in is known. A 5xx on either request
 * is a FAIL (Probe.exchange), never a SKIP.
 */
async function usedToken(
  probe: Probe,
): Promise<{ token: IssuedToken; expiresIn: number; usedAt: number; sentAt: number; requestedAt: number }> {
  // A lifetime known before the run (the preflight's token) decides a wait the deadline cannot hold before anything
  // is sent, so the verdict does not hang on whether start-up outran the deadline.
  const known = probe.knownLifetime;
  if (known !== undefined) reserveWait(probe, known.expiresIn, known);
  const requestedAt = Date.now();
  const token = await probe.obtainToken();
  if (token.expiresIn === undefined) {
    throw new PrerequisiteError("the token response has no usable expires_in (see token.response-schema)");
  }
  reserveWait(probe, token.expiresIn);
  const sentAt = Date.now();
  const response = await probe.postEvent("first use of the token", token.accessToken);
  if (!isSuccess(response.status))
    throw new PrerequisiteError(`a valid event was not accepted (${response.status}; see events.accepted)`);
  return { token, expiresIn: token.expiresIn, usedAt: Date.now(), sentAt, requestedAt };
}

/**
 * Whether a refusal at `answeredAt` fits a lifetime fixed from issue: the token, asked for at `requestedAt`, may then
 * have been expires_in old (less the clock slack), although it was in use.
 */
function fitsFixedLifetime(requestedAt: number, answeredAt: number, expiresIn: number): boolean {
  return (answeredAt - requestedAt) / 1000 + CLOCK_SLACK_SECONDS >= expiresIn;
}

export const lifetimeSliding = defineCheck({
  id: "lifetime.sliding",
  title: "A token used regularly stays valid beyond its original expires_in",
  area: "lifetime",
  level: "MUST",
  rule: "Authentication rule 6",
  profile: "full",
  async run(probe): Promise<Finding> {
    const { token, expiresIn, usedAt, sentAt, requestedAt } = await usedToken(probe);
    const horizon = usedAt + (expiresIn + lifetimeMarginSeconds(expiresIn)) * 1000;
    const interval = Math.max(250, Math.min((expiresIn * 1000) / 4, 60_000));
    let lastUse = usedAt;
    let lastSent = sentAt;
    let uses = 1;
    // Only a use sent after the horizon proves the lifetime slid: a slow answer to an earlier one proves nothing.
    while (lastSent < horizon) {
      await waitUntil(
        probe,
        Math.min(lastUse + interval, horizon),
        `lifetime.sliding: ${countNoun(uses, "use")} so far`,
        horizon,
      );
      const sent = Date.now();
      const response = await probe.postEvent(`use ${uses + 1}`, token.accessToken);
      const now = Date.now();
      if (response.status === 401 || response.status === 403) {
        refusalProvesEarlyExpiry(lastSent, now, expiresIn);
        const said = describeResponse(response, probe.redactor);
        if (fitsFixedLifetime(requestedAt, now, expiresIn)) {
          return broken(
            `a lifetime fixed from issue: rejected ${formatDuration(now - requestedAt)} after the token was requested (expires_in ${expiresIn} s), ` +
              `though used ${countNoun(uses, "time")} and last only ${formatDuration(now - lastUse)} before; ` +
              `expires_in must count from the last use (${said})`,
          );
        }
        return broken(
          `rejected ${formatDuration(now - usedAt)} after its first use but only ${formatDuration(now - lastUse)} after its last use; ` +
            `expires_in ${expiresIn} s must count from the last use (${said})`,
        );
      }
      if (!isSuccess(response.status))
        throw new PrerequisiteError(`event creation failed with ${response.status}`);
      lastUse = now;
      lastSent = sent;
      uses += 1;
    }
    return holds(
      `used ${countNoun(uses, "time")} over ${formatDuration(lastUse - usedAt)} (expires_in ${expiresIn} s), never rejected; ` +
        `the last use was sent ${formatDuration(lastSent - usedAt)} after the first use's answer`,
    );
  },
});

export const lifetimeIdleExpires = defineCheck({
  id: "lifetime.idle-expires",
  title: "A token left idle longer than expires_in is rejected",
  area: "lifetime",
  level: "MUST",
  rule: "Authentication rule 6",
  profile: "full",
  async run(probe) {
    const { token, expiresIn, usedAt } = await usedToken(probe);
    const idle = (expiresIn + lifetimeMarginSeconds(expiresIn)) * 1000;
    await waitUntil(probe, usedAt + idle, "lifetime.idle-expires: idle");
    const response = await probe.postEvent(`use after ${formatDuration(idle)} idle`, token.accessToken);
    const said = describeResponse(response, probe.redactor);
    if (isSuccess(response.status))
      return broken(
        `expected a rejection after ${formatDuration(idle)} idle (expires_in ${expiresIn} s), but it was accepted: ${said}`,
      );
    // The endpoint took this token before the idle time: only a token refusal says it expired, not a 404 or 400.
    if (!isRefusal(response, REFUSED_TOKEN))
      return broken(
        `expected a refusal, ${describeRefusal(REFUSED_TOKEN)}, after ${formatDuration(idle)} idle (expires_in ${expiresIn} s), received ${said}`,
      );
    return holds(
      `rejected with ${response.status} after ${formatDuration(idle)} idle (expires_in ${expiresIn} s)`,
    );
  },
});

export const lifetimeNoEarlyExpiry = defineCheck({
  id: "lifetime.no-early-expiry",
  title: "A token left idle for most of expires_in is still accepted",
  area: "lifetime",
  level: "MUST",
  rule: "Authentication rule 5",
  profile: "full",
  async run(probe) {
    const { token, expiresIn, usedAt, sentAt } = await usedToken(probe);
    const idle = Math.max(0, expiresIn - earlyMarginSeconds(expiresIn)) * 1000;
    await waitUntil(probe, usedAt + idle, "lifetime.no-early-expiry: idle");
    const response = await probe.postEvent(`use after ${formatDuration(idle)} idle`, token.accessToken);
    if (response.status === 401 || response.status === 403)
      refusalProvesEarlyExpiry(sentAt, Date.now(), expiresIn);
    if (!isSuccess(response.status)) {
      const said = describeResponse(response, probe.redactor);
      return broken(
        `expected the token to work after ${formatDuration(idle)} idle (expires_in ${expiresIn} s), received ${said}`,
      );
    }
    return holds(`accepted after ${formatDuration(idle)} idle (expires_in ${expiresIn} s)`);
  },
});

export const lifetimeRenewal = defineCheck({
  id: "lifetime.renewal",
  title: "After a token expired, repeating the token call gives a working token",
  area: "lifetime",
  level: "MUST",
  rule: "Authentication rule 7",
  profile: "full",
  async run(probe) {
    const { token, expiresIn, usedAt } = await usedToken(probe);
    const idle = (expiresIn + lifetimeMarginSeconds(expiresIn)) * 1000;
    await waitUntil(probe, usedAt + idle, "lifetime.renewal: waiting for expiry");
    const stale = await probe.postEvent("use of the expired token", token.accessToken);
    if (isSuccess(stale.status))
      return skipped("the token did not expire, so renewal cannot be tested (see lifetime.idle-expires)");
    const renewed = await probe.obtainToken("repeat the token call after expiry");
    const response = await probe.postEvent("use of the new token", renewed.accessToken);
    const said = describeResponse(response, probe.redactor);
    if (!isSuccess(response.status)) return broken(`expected the new token to be accepted, received ${said}`);
    return holds(`the expired token got ${stale.status}; a new token was accepted with ${response.status}`);
  },
});

export const LIFETIME_CHECKS = [
  lifetimeSliding,
  lifetimeIdleExpires,
  lifetimeNoEarlyExpiry,
  lifetimeRenewal,
] as const;
