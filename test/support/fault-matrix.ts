import { expect } from "vitest";
import { runContract } from "../../cli/contract/run-contract.ts";
import type { CheckResult, ClientAuth, Profile } from "../../contracts/index.ts";
import { DIRECT, FUZZ_DEFAULTS } from "../../contracts/index.ts";
import type { FaultName, RunningSandbox, SandboxOptions } from "../../sandbox/index.ts";

// The contract suite's fault matrix, shared by its fast-profile and full-profile test files.

/**
 * Short, so the sliding-expiry probes take about 7 s beside the fast checks and the property-based stage; long
 * enough that early expiry (at 2.5 s) is told apart.
 */
export const EXPIRES_IN = 5;
/** A backstop: the full profile's sliding-expiry probes and property-based stage take about 30 s together. */
export const FULL_TIMEOUT_MS = 120_000;

/**
 * Every fault and exactly the checks it must trip. A check missing here must PASS or SKIP under that fault;
 * a fault missing here fails the completeness test below.
 */
export const EXPECTED: Partial<
  Record<
    FaultName,
    {
      fail?: string[];
      warn?: string[];
      profile?: Profile;
      clientAuth?: ClientAuth;
      fuzzRuns?: number;
      /** An input-handling fault: its row runs with the others of the property-based stage. */
      inputs?: true;
    }
  >
> = {
  // The token form's own checks meet these too: a grant type, a secret or a client changed is refused there as well.
  "token-any-grant-type": {
    fail: ["token.grant-type-enforced", "inputs.token-fields"],
    warn: ["token.error-format"],
  },
  "token-wrong-secret-accepted": {
    fail: ["token.wrong-secret-refused", "inputs.token-fields"],
    warn: ["token.error-format"],
  },
  "token-unknown-client-accepted": { fail: ["token.unknown-client-refused", "inputs.token-fields"] },
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
  // A bypass on the client authentication the run was not configured with: a wrong secret and an unknown client
  // must be refused with every method the server accepts (the reverse pairs are below).
  "token-basic-unchecked": {
    fail: ["token.wrong-secret-refused", "token.unknown-client-refused", "inputs.token-fields"],
    clientAuth: "post",
  },
  "token-form-unchecked": {
    fail: ["token.wrong-secret-refused", "token.unknown-client-refused", "inputs.token-fields"],
    clientAuth: "basic",
  },
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
      "events.formats-enforced",
      "events.invalid-rejected",
      "events.malformed-json",
      "events.wrong-content-type",
      "inputs.valid-accepted",
      "inputs.no-server-error",
      "inputs.types-enforced",
      "inputs.dates-enforced",
      "inputs.email",
      "inputs.strings",
      "inputs.calendar",
      "inputs.channel-id",
      "inputs.body",
      "inputs.envelope",
      "inputs.json-grammar",
    ],
  },
  // A 5xx for a client's mistake is a MUST failure in the SHOULD checks that send one as well.
  "events-invalid-5xx": {
    fail: [
      "events.no-server-error",
      "events.formats-enforced",
      "events.invalid-rejected",
      "events.malformed-json",
      "inputs.no-server-error",
      "inputs.types-enforced",
      "inputs.dates-enforced",
      "inputs.email",
      "inputs.calendar",
      "inputs.channel-id",
      "inputs.body",
    ],
  },
  // Accepting an event that breaks a format the spec states fails a run (MUST); one without a field only production
  // requires is a warning.
  "events-accept-invalid": {
    fail: [
      "events.formats-enforced",
      "inputs.types-enforced",
      "inputs.dates-enforced",
      "inputs.email",
      "inputs.calendar",
      "inputs.channel-id",
      "inputs.body",
    ],
    warn: ["events.invalid-rejected"],
  },
  "events-any-content-type": { warn: ["events.wrong-content-type"] },
  "events-not-stored": { warn: ["events.stored"] },
  // An API without the optional read-back route: events.stored SKIPs (no such route), nothing fails.
  "events-no-read-route": {},
  // Input-handling bugs real event APIs have: each is found by the property-based stage's coverage, so the fast
  // profile's default number of inputs fails the run on it whatever the seed; the checks whose classes meet the same
  // bug fail with it.
  "events-5xx-email-local-part": { fail: ["inputs.valid-accepted", "inputs.email"], inputs: true },
  "events-5xx-long-reference": {
    fail: ["inputs.valid-accepted", "inputs.no-server-error", "inputs.strings"],
    inputs: true,
  },
  "events-5xx-quote-reference": { fail: ["inputs.valid-accepted", "inputs.strings"], inputs: true },
  "events-5xx-emoji-system": {
    fail: ["inputs.valid-accepted", "inputs.strings", "inputs.json-grammar"],
    inputs: true,
  },
  "events-5xx-unknown-property": { fail: ["inputs.no-server-error"], inputs: true },
  "events-5xx-null-field": {
    fail: ["events.no-server-error", "events.formats-enforced", "inputs.types-enforced"],
    inputs: true,
  },
  // The odd-number class's first boundary is 2^53 + 1; the type classes meet one only when the search draws it.
  "events-5xx-huge-integer": { fail: ["inputs.no-server-error"], inputs: true },
  "events-5xx-deep-nesting": { fail: ["inputs.no-server-error", "inputs.types-enforced"], inputs: true },
  "events-lenient-dates": {
    fail: ["events.formats-enforced", "inputs.dates-enforced", "inputs.calendar"],
    inputs: true,
  },
  "events-numbers-as-strings": { fail: ["events.formats-enforced", "inputs.types-enforced"], inputs: true },
  "events-5xx-long-email": { fail: ["inputs.email"], inputs: true },
  "events-5xx-idn-email": { fail: ["inputs.email"], inputs: true },
  "events-email-shape-unchecked": { fail: ["events.formats-enforced", "inputs.email"], inputs: true },
  "events-5xx-long-system-version": { fail: ["inputs.strings"], inputs: true },
  "events-5xx-non-ascii-type": { fail: ["inputs.strings"], inputs: true },
  "events-leap-every-fourth-year": { fail: ["inputs.calendar"], inputs: true },
  "events-channel-prefix-unchecked": { fail: ["events.formats-enforced", "inputs.channel-id"], inputs: true },
  "events-array-body-accepted": { fail: ["events.formats-enforced", "inputs.body"], inputs: true },
  "events-5xx-utf16-body": { fail: ["inputs.body"], inputs: true },
  "events-5xx-bearer-lowercase": { fail: ["inputs.envelope"], inputs: true },
  "events-strict-content-type": { fail: ["inputs.envelope"], inputs: true },
  "events-5xx-escaped-surrogates": { fail: ["inputs.json-grammar"], inputs: true },
  "token-repeated-params-accepted": { warn: ["inputs.token-form"], inputs: true },
  "token-empty-param-5xx": { fail: ["inputs.token-form"], inputs: true },
  "token-secret-case-insensitive": { fail: ["inputs.token-fields"], inputs: true },
  // A request without grant_type is also what the token form's name-case class sends (GRANT_TYPE for grant_type).
  "token-5xx-missing-param": { fail: ["inputs.token-fields", "inputs.token-form"], inputs: true },
  "token-5xx-long-value": { fail: ["inputs.token-fields"], inputs: true },
  // The token form is explored with every client authentication the target accepts, HTTP Basic too.
  "token-basic-5xx-unknown-param": { fail: ["inputs.token-form"], inputs: true },
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
  fuzzRuns?: number,
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
    ...(fuzzRuns === undefined ? {} : { fuzz: { ...FUZZ_DEFAULTS[profile], runs: fuzzRuns } }),
  });
}

export const ids = (results: CheckResult[], status: string) =>
  results
    .filter((result) => result.status === status)
    .map((result) => result.id)
    .sort();

type Expectation = NonNullable<(typeof EXPECTED)[FaultName]>;
type Start = (options: SandboxOptions) => Promise<RunningSandbox>;

/** The groups the fast-profile rows are split into, one test file each, so that workers share them. */
export type RowGroup = "token" | "bearer-and-events" | "inputs";

function groupOf(fault: string, expected: Expectation): RowGroup {
  if (expected.inputs === true || expected.fuzzRuns !== undefined) return "inputs";
  return fault.startsWith("token-") ? "token" : "bearer-and-events";
}

/** The fast-profile rows of EXPECTED in `group`, each with its timeout (longer for the property-based rows). */
export function fastRows(group: RowGroup): Array<[FaultName, Expectation & { timeout: number }]> {
  return Object.entries(EXPECTED).flatMap(([fault, expected]) =>
    expected === undefined || expected.profile === "full" || groupOf(fault, expected) !== group
      ? []
      : [
          [fault as FaultName, { ...expected, timeout: group === "inputs" ? FULL_TIMEOUT_MS : 60_000 }] as [
            FaultName,
            Expectation & { timeout: number },
          ],
        ],
  );
}

/** Runs the fast profile under `fault` and expects exactly its row's failures and warnings, and no ERROR. */
export async function expectExactly(start: Start, fault: FaultName, expected: Expectation): Promise<void> {
  const results = await checkAgainst(
    start,
    [fault],
    "fast",
    expected.clientAuth ?? "post",
    undefined,
    // An input fault's row draws one random input: its class's boundaries alone must find it, whatever the seed.
    expected.fuzzRuns ?? (expected.inputs === true ? 1 : undefined),
  );
  expect({
    fail: ids(results, "FAIL"),
    warn: ids(results, "WARN"),
    error: ids(results, "ERROR"),
  }).toEqual({
    fail: [...(expected.fail ?? [])].sort(),
    warn: [...(expected.warn ?? [])].sort(),
    error: [],
  });
}
