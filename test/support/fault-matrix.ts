import { runContract } from "../../cli/contract/run-contract.ts";
import type { CheckResult, ClientAuth, Profile } from "../../contracts/index.ts";
import { DIRECT } from "../../contracts/index.ts";
import type { FaultName, RunningSandbox, SandboxOptions } from "../../sandbox/index.ts";

// The contract suite's fault matrix, shared by its fast-profile and full-profile test files.

/** Short, so the full profile takes about 7 s; long enough that early expiry (at 2.5 s) is told apart. */
export const EXPIRES_IN = 5;

/**
 * Every fault and exactly the checks it must trip. A check missing here must PASS or SKIP under that fault;
 * a fault missing here fails the completeness test below.
 */
export const EXPECTED: Partial<
  Record<FaultName, { fail?: string[]; warn?: string[]; profile?: Profile; clientAuth?: ClientAuth }>
> = {
  "token-any-grant-type": { fail: ["token.grant-type-enforced"], warn: ["token.error-format"] },
  "token-wrong-secret-accepted": { fail: ["token.wrong-secret-refused"], warn: ["token.error-format"] },
  "token-unknown-client-accepted": { fail: ["token.unknown-client-refused"] },
  "token-missing-expires-in": { fail: ["token.response-schema"] },
  "token-string-expires-in": { fail: ["token.response-schema"] },
  "token-type-mac": { fail: ["token.response-schema"] },
  "token-no-example-fields": { warn: ["token.example-fields"] },
  "token-opaque": { fail: ["token.signed"] },
  "token-unsigned": { fail: ["token.signed"] },
  "token-json-only": { fail: ["token.issued"], warn: ["token.form-auth", "token.basic-auth"] },
  "token-reissue-broken": { fail: ["token.reissue", "events.accepted"] },
  "token-no-cache-headers": { warn: ["token.no-store"] },
  "token-no-basic-auth": { warn: ["token.basic-auth"] },
  // A Basic-only server, as it should be checked: with --client-auth basic it passes, warning that the spec's
  // form fields are refused. (The same server checked with form fields fails token.issued: see below.)
  "token-basic-only": { warn: ["token.form-auth"], clientAuth: "basic" },
  "token-error-not-json": { warn: ["token.error-format"] },
  "token-narrow-scope": { warn: ["token.scope"] },
  "bearer-not-required": { fail: ["bearer.missing"], warn: ["bearer.challenge"] },
  "bearer-any-token": {
    fail: ["bearer.garbage", "bearer.truncated", "bearer.tampered", "bearer.alg-none", "bearer.foreign-key"],
    warn: ["bearer.challenge"],
  },
  "bearer-signature-unchecked": { fail: ["bearer.tampered", "bearer.foreign-key"] },
  "bearer-alg-none": { fail: ["bearer.alg-none"] },
  "bearer-any-scheme": { fail: ["bearer.other-scheme"] },
  "bearer-no-www-authenticate": { warn: ["bearer.challenge"] },
  // A 5xx is a MUST failure wherever it appears: also in the SHOULD challenge check and the side-effect probe.
  "bearer-5xx": {
    fail: [
      "bearer.garbage",
      "bearer.other-scheme",
      "bearer.truncated",
      "bearer.tampered",
      "bearer.alg-none",
      "bearer.foreign-key",
      "bearer.challenge",
      "bearer.no-side-effect",
    ],
  },
  "bearer-rejected-stored": { fail: ["bearer.no-side-effect"] },
  // Every check that sends a valid event meets the 500 (the negative event and bearer checks do, as their
  // premise): a FAIL there too, never a SKIP.
  "events-5xx": {
    fail: [
      "events.accepted",
      "token.reissue",
      "bearer.missing",
      "bearer.garbage",
      "bearer.other-scheme",
      "bearer.truncated",
      "bearer.tampered",
      "bearer.alg-none",
      "bearer.foreign-key",
      "bearer.no-side-effect",
      "events.resubmit",
      "events.stored",
      "events.no-server-error",
      "events.invalid-rejected",
      "events.malformed-json",
      "events.wrong-content-type",
    ],
  },
  // A 5xx for a client's mistake is a MUST failure in the SHOULD checks that send one as well.
  "events-invalid-5xx": {
    fail: ["events.no-server-error", "events.invalid-rejected", "events.malformed-json"],
  },
  "events-accept-invalid": { warn: ["events.invalid-rejected"] },
  "events-any-content-type": { warn: ["events.wrong-content-type"] },
  "events-not-stored": { warn: ["events.stored"] },
  // An API without the optional read-back route: events.stored SKIPs (no such route), nothing fails.
  "events-no-read-route": {},
  "expiry-fixed": { fail: ["lifetime.sliding"], profile: "full" },
  "expiry-never": { fail: ["lifetime.idle-expires"], profile: "full" },
  "expiry-early": { fail: ["lifetime.no-early-expiry"], profile: "full" },
  "expiry-no-renewal": { fail: ["lifetime.renewal"], profile: "full" },
};

/**
 * Faults that are not contract defects of one check: load-only, transport failures (tested by the CLI tests), or a
 * flaky server whose failures land on whichever checks happen to draw them (tested on its own, full profile).
 */
export const NOT_IN_MATRIX = new Set<string>([
  "events-5xx-fraction",
  "events-500-one-in-seven",
  "slow",
  "reset",
  "non-json",
]);

/** Runs the contract suite in-process against `sandbox`, as the CLI would against an embedded one. */
export async function checkAgainst(
  start: (options: SandboxOptions) => Promise<RunningSandbox>,
  faults: FaultName[],
  profile: Profile,
  clientAuth: ClientAuth = "post",
  faultSeed?: number,
): Promise<CheckResult[]> {
  const sandbox = await start({
    expiresIn: EXPIRES_IN,
    faults,
    ...(faultSeed === undefined ? {} : { faultSeed }),
  });
  const client = sandbox.clients[0];
  if (!client) throw new Error("sandbox has no client");
  return runContract({
    target: {
      tokenUrl: sandbox.tokenUrl,
      baseUrl: sandbox.baseUrl,
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      audience: sandbox.baseUrl,
      clientAuth,
      connection: DIRECT,
      timeoutMs: 5_000,
      embedded: true,
    },
    profile,
    only: [],
    seed: 7,
    runId: `matrix-${faults.join("-") || "none"}-${clientAuth}`,
  });
}

export const ids = (results: CheckResult[], status: string) =>
  results
    .filter((result) => result.status === status)
    .map((result) => result.id)
    .sort();
