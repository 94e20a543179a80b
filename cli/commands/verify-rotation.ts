import { randomInt } from "node:crypto";
import type { RotationExpectations, Target } from "../../contracts/index.ts";
import packageJson from "../../package.json" with { type: "json" };
import type { ContractRun } from "../../reporting/contract/index.ts";
import { defineCommand } from "../command.ts";
import { interruption } from "../interruption.ts";
import { resolveTargetWithIssuer } from "../issuer-target.ts";
import { parseInteger } from "../option-values.ts";
import {
  checkRotationInputs,
  OLD_SECRET_ENV,
  OLD_TOKEN_ENV,
  readRotationInputs,
  rotationInputOptions,
} from "../rotation-inputs.ts";
import { embeddedTarget, resolveTargetTuning, targetOptions } from "../target-options.ts";
import { UsageError } from "../usage-error.ts";
import { prepareWritableDir } from "../writable-dir.ts";
import { reportContractRun } from "./report-contract-run.ts";

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

export const verifyRotationCommand = defineCommand({
  name: "verify-rotation",
  summary: "Check a target right after its client secret was rotated",
  usage:
    "verify-rotation [--expect-old refused|accepted] [--expect-old-tokens valid|revoked] [--old-secret-file FILE] [--old-token-file FILE] [target options]",
  description: [
    "The new secret goes in EVENT_API_CLIENT_SECRET; optionally the old one in EVENT_API_OLD_CLIENT_SECRET (or",
    "--old-secret-file) and a token obtained before the rotation in EVENT_API_OLD_ACCESS_TOKEN (or --old-token-file).",
    "Checks that the new secret yields a working token and an accepted event, and compares what happens to the old",
    "secret and the old token with what you expect (FAIL when reality differs; without an expectation it is only",
    "reported). An expectation needs its input (--expect-old the old secret, --expect-old-tokens the old token), and",
    "the old secret must differ from the new one: else exit 2, before any request.",
    "With no target, the embedded sandbox is started, a token is taken with its secret, the secret is rotated",
    "(--sandbox-overlap, --sandbox-revoke), and the rotation is verified.",
    "Exit codes as for contract: 0 passed, 1 failed, 2 usage, 3 could not decide.",
  ].join("\n"),
  options: {
    "expect-old": {
      type: "string",
      valueName: "WHAT",
      description: "refused or accepted: what the old secret should get.",
    },
    "expect-old-tokens": {
      type: "string",
      valueName: "WHAT",
      description: "valid or revoked: what tokens issued before the rotation should be.",
    },
    "report-dir": {
      type: "string",
      valueName: "DIR",
      description: "Where the reports go (default reports/rotation).",
    },
    "sandbox-overlap": {
      type: "string",
      valueName: "S",
      description: "Embedded sandbox: seconds the old secret stays accepted (default 0).",
    },
    "sandbox-revoke": {
      type: "boolean",
      description: "Embedded sandbox: revoke tokens issued before the rotation.",
    },
    ...rotationInputOptions,
    ...targetOptions,
  },
  examples: [
    "event-harness verify-rotation --expect-old refused --expect-old-tokens valid",
    "EVENT_API_CLIENT_SECRET=new EVENT_API_OLD_CLIENT_SECRET=old event-harness verify-rotation --expect-old refused \\\n    --auth-url https://auth.example.com --base-url https://api.example.com --client-id my-client",
    'EVENT_API_CLIENT_SECRET="$(cat new.secret)" event-harness verify-rotation --old-secret-file new.secret.old-secret \\\n    --old-token-file new.secret.old-token --expect-old refused --expect-old-tokens valid --auth-url … --base-url … --client-id …',
  ],
  async run({ options, io }) {
    const contracts = await import("../../contracts/index.ts");
    const { describeTarget } = await import("../../reporting/contract/index.ts");
    const expectOld = choice("expect-old", options["expect-old"], EXPECT_OLD);
    const expectOldTokens = choice("expect-old-tokens", options["expect-old-tokens"], EXPECT_OLD_TOKENS);
    const overlap = parseInteger("sandbox-overlap", options["sandbox-overlap"], {
      min: 0,
      max: 86_400,
      fallback: 0,
    });
    const external = await resolveTargetWithIssuer(options, io.env, io);
    const tuning = resolveTargetTuning(options, io.env);
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
    const reportDir = await prepareWritableDir(
      options["report-dir"] ?? "reports/rotation",
      "--report-dir",
      "verify-rotation",
    );
    const started = Date.now();
    const sandbox = external
      ? undefined
      : await (await import("../../sandbox/index.ts")).startSandbox({ port: 0 });
    try {
      let target: Target;
      let expectations: RotationExpectations;
      if (external) {
        target = external;
        const { oldSecret, oldToken } = given;
        expectations = {
          ...(oldSecret ? { oldSecret: new contracts.Secret(oldSecret) } : {}),
          ...(oldToken ? { oldToken: new contracts.Secret(oldToken) } : {}),
          ...(expectOld ? { expectOld } : {}),
          ...(expectOldTokens ? { expectOldTokens } : {}),
        };
      } else {
        const running = sandbox as NonNullable<typeof sandbox>;
        const before = running.clients[0];
        if (before === undefined) throw new Error("the embedded sandbox started without a client");
        const oldToken = await running.issueToken(before.clientId);
        const after = await running.rotateSecret(before.clientId, {
          overlapSeconds: overlap,
          revokeTokens: options["sandbox-revoke"] === true,
        });
        io.stderr.write(
          `Rotated the embedded sandbox's secret (old secret ${overlap > 0 ? `accepted for ${overlap} s` : "refused at once"}, ` +
            `earlier tokens ${options["sandbox-revoke"] ? "revoked" : "kept"}).\n`,
        );
        target = embeddedTarget(running, tuning, after);
        expectations = {
          oldSecret: new contracts.Secret(before.clientSecret),
          oldToken: new contracts.Secret(oldToken),
          ...(expectOld ? { expectOld } : {}),
          ...(expectOldTokens ? { expectOldTokens } : {}),
        };
      }
      const redactor = new contracts.Redactor();
      for (const secret of [target.clientSecret, expectations.oldSecret]) {
        if (secret)
          redactor.add(secret.reveal(), "<CLIENT_SECRET>").addBasic(target.clientId, secret.reveal());
      }
      if (expectations.oldToken) redactor.addToken(expectations.oldToken.reveal(), "<OLD_ACCESS_TOKEN>");
      const { createEventGenerator } = await import("../../generators/index.ts");
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
          signal: io.signal,
        });
        checks.push(await contracts.executeCheck(check, probe));
      }
      const run: ContractRun = {
        tool: { name: packageJson.name, version: packageJson.version },
        suite: "verify-rotation",
        seed: events.seed,
        startedAt: new Date(started).toISOString(),
        durationMs: Date.now() - started,
        target: describeTarget(target),
        checks,
        ...(io.signal.aborted ? { aborted: interruption(io.signal) } : {}),
      };
      return await reportContractRun(run, reportDir, redactor, io);
    } finally {
      await sandbox?.close();
    }
  },
});
