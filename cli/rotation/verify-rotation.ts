import { randomInt } from "node:crypto";
import type { CheckResult, Redactor, RotationExpectations, Target } from "../../contracts/index.ts";
import { UsageError } from "../../core/index.ts";
import packageJson from "../../package.json" with { type: "json" };
import type { Ledger } from "../../reporting/accepted/index.ts";
import type { ContractRun } from "../../reporting/contract/index.ts";
import type { RunningSandbox } from "../../sandbox/index.ts";
import type { CommandIo } from "../command.ts";
import { reportContractRun } from "../contract/index.ts";
import { interruption } from "../interruption.ts";
import { parseInteger } from "../options/parse-option-value.ts";
import type { RotationOptionValues } from "../options/rotation-options.ts";
import { OLD_SECRET_ENV, OLD_TOKEN_ENV, rotationOptions } from "../options/rotation-options.ts";
import type { TargetTuning } from "../options/target-options.ts";
import { embeddedTarget } from "../options/target-options.ts";
import { runOverrides } from "../run-overrides.ts";
import { setUpRun } from "../run-setup.ts";
import { checkRotationInputs, readRotationInputs } from "./rotation-inputs.ts";

const EXPECT_OLD = ["refused", "accepted"] as const;
const EXPECT_OLD_TOKENS = ["valid", "revoked"] as const;

function choice<const T extends string>(
  name: string,
  raw: string | undefined,
  choices: readonly T[],
): T | undefined {
  if (raw === undefined) return undefined;
  if ((choices as readonly string[]).includes(raw)) return raw as T;
  throw new UsageError("invalid-value", `--${name} takes one of ${choices.join(", ")}, got '${raw}'`);
}

/** The rotation options checked against the target, with the old secret and token a target needs read. */
async function vetRotationOptions(
  options: RotationOptionValues,
  io: CommandIo,
  external: Target | undefined,
  expected: {
    readonly expectOld: (typeof EXPECT_OLD)[number] | undefined;
    readonly expectOldTokens: (typeof EXPECT_OLD_TOKENS)[number] | undefined;
  },
): Promise<{ oldSecret?: string; oldToken?: string }> {
  const { expectOld, expectOldTokens } = expected;
  if (external && (options["sandbox-overlap"] !== undefined || options["sandbox-revoke"])) {
    throw new UsageError(
      "invalid-config",
      "--sandbox-overlap and --sandbox-revoke apply only to the embedded sandbox",
    );
  }
  if (!external && (options["old-secret-file"] ?? options["old-token-file"]) !== undefined) {
    throw new UsageError(
      "invalid-config",
      "--old-secret-file and --old-token-file apply to a target (the embedded sandbox keeps its own)",
      "verify-rotation",
    );
  }
  // Read and checked before the sandbox starts or a request goes out: a mistake is exit 2 with nothing sent.
  const given = external ? await readRotationInputs(options, io.env, "verify-rotation") : {};
  if (external) {
    checkRotationInputs(
      {
        ...given,
        ...(expectOld ? { expectOld } : {}),
        ...(expectOldTokens ? { expectOldTokens } : {}),
      },
      external.clientSecret.reveal(),
      {
        oldSecret: `${OLD_SECRET_ENV} or --old-secret-file FILE`,
        oldToken: `${OLD_TOKEN_ENV} or --old-token-file FILE`,
      },
      "verify-rotation",
    );
  }
  return given;
}

type Expected = Pick<RotationExpectations, "expectOld" | "expectOldTokens">;

/** The verify-rotation options read and checked once: nothing after this touches the raw options. */
interface CheckedRotation {
  readonly expected: Expected;
  /** The embedded sandbox's rotation: seconds the old secret stays accepted, and whether earlier tokens go. */
  readonly overlap: number;
  readonly revoke: boolean;
  /** The target the user named, or undefined for the embedded sandbox. */
  readonly external: Target | undefined;
  readonly tuning: TargetTuning;
  readonly ledger: Ledger | undefined;
  readonly reportDir: string;
  /** The old secret and token the user gave for a target. */
  readonly given: { readonly oldSecret?: string; readonly oldToken?: string };
  readonly overrides: readonly string[];
}

/** The one reading of the verify-rotation options, before the sandbox starts or a request goes out. */
async function readRotationOptions(options: RotationOptionValues, io: CommandIo): Promise<CheckedRotation> {
  const expectOld = choice("expect-old", options["expect-old"], EXPECT_OLD);
  const expectOldTokens = choice("expect-old-tokens", options["expect-old-tokens"], EXPECT_OLD_TOKENS);
  const overlap = parseInteger("sandbox-overlap", options["sandbox-overlap"], {
    ...rotationOptions["sandbox-overlap"].range,
    fallback: 0,
  });
  const { external, tuning, ledger, reportDir, vetted } = await setUpRun(
    options,
    io,
    { command: "verify-rotation", defaultReportParent: "reports/rotation", runTimeout: false },
    (external) => vetRotationOptions(options, io, external, { expectOld, expectOldTokens }),
  );
  return {
    expected: {
      ...(expectOld ? { expectOld } : {}),
      ...(expectOldTokens ? { expectOldTokens } : {}),
    },
    overlap,
    revoke: options["sandbox-revoke"] === true,
    external,
    tuning,
    ledger,
    reportDir,
    given: vetted,
    overrides: runOverrides(options, io),
  };
}

/** Rotates the embedded sandbox's secret as the options ask, keeping the old secret and a token issued before. */
async function rotateEmbedded(
  running: RunningSandbox,
  { tuning, overlap, revoke, expected }: CheckedRotation,
  io: CommandIo,
): Promise<{ target: Target; expectations: RotationExpectations }> {
  const { Secret } = await import("../../contracts/index.ts");
  const before = running.clients[0];
  if (before === undefined) throw new Error("the embedded sandbox started without a client");
  const oldToken = await running.issueToken(before.clientId);
  const after = await running.rotateSecret(before.clientId, {
    overlapSeconds: overlap,
    revokeTokens: revoke,
  });
  io.stderr.write(
    `Rotated the embedded sandbox's secret (old secret ${overlap > 0 ? `accepted for ${overlap} s` : "refused at once"}, ` +
      `earlier tokens ${revoke ? "revoked" : "kept"}).\n`,
  );
  const target = embeddedTarget(running, tuning, after);
  const expectations = {
    oldSecret: new Secret(before.clientSecret),
    oldToken: new Secret(oldToken),
    ...expected,
  };
  return { target, expectations };
}

/** Runs the rotation checks one after the other, every secret and the old token redacted from their evidence. */
async function runRotationChecks(
  target: Target,
  expectations: RotationExpectations,
  started: number,
  io: CommandIo,
): Promise<{ checks: CheckResult[]; seed: number; redactor: Redactor }> {
  const contracts = await import("../../contracts/index.ts");
  const redactor = contracts.targetRedactor(target);
  const oldSecret = expectations.oldSecret?.reveal();
  if (oldSecret) redactor.add(oldSecret, "<CLIENT_SECRET>").addBasic(target.clientId, oldSecret);
  if (expectations.oldToken) redactor.addToken(expectations.oldToken.reveal(), "<OLD_ACCESS_TOKEN>");
  const { createEventGenerator, INVALID_VARIANTS } = await import("../../generators/index.ts");
  const events = createEventGenerator({
    seed: randomInt(0xffff_ffff),
    runId: `r${started.toString(36)}`,
    referencePrefix: "eah-rotation-",
    ...(target.channelId === undefined ? {} : { channels: [target.channelId] }),
  });
  const checks = [];
  for (const check of contracts.rotationChecks(expectations)) {
    // Ctrl+C cuts a waiting request short: the check is ERROR and the reports are still written.
    const probe = new contracts.Probe({
      target,
      redactor,
      nextEvent: () => events.next(),
      eventBreakers: INVALID_VARIANTS,
      signal: io.signal,
    });
    checks.push(await contracts.executeCheck(check, probe));
  }
  return { checks, seed: events.seed, redactor };
}

/**
 * The rotation check from options to exit code: with a target, checks the old secret and token the user gave; with
 * none, rotates the embedded sandbox's secret first. Then runs the rotation checks and writes the reports.
 */
export async function verifyRotation(options: RotationOptionValues, io: CommandIo): Promise<number> {
  const contracts = await import("../../contracts/index.ts");
  const { describeTarget, ROTATION_SUITE } = await import("../../reporting/contract/index.ts");
  const checked = await readRotationOptions(options, io);
  const { external, ledger, reportDir, given, expected } = checked;
  const started = Date.now();
  const sandbox = external
    ? undefined
    : await (await import("../../sandbox/index.ts")).startSandbox({ port: 0 });
  try {
    const { target, expectations } = external
      ? {
          target: external,
          expectations: {
            ...(given.oldSecret ? { oldSecret: new contracts.Secret(given.oldSecret) } : {}),
            ...(given.oldToken ? { oldToken: new contracts.Secret(given.oldToken) } : {}),
            ...expected,
          },
        }
      : await rotateEmbedded(sandbox as NonNullable<typeof sandbox>, checked, io);
    const { checks, seed, redactor } = await runRotationChecks(target, expectations, started, io);
    const run: ContractRun = {
      tool: { name: packageJson.name, version: packageJson.version },
      suite: ROTATION_SUITE,
      seed,
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      target: describeTarget(target),
      checks,
      ...(io.signal.aborted ? { aborted: interruption(io.signal) } : {}),
      overrides: checked.overrides,
    };
    return await reportContractRun(run, reportDir, redactor, io, ledger);
  } finally {
    await sandbox?.close();
  }
}
