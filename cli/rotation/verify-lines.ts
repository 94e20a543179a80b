import { displayPath } from "../display-path.ts";
import { CURRENT_SECRET_ENV } from "../options/sandbox-rotate-options.ts";

function quoteForShell(value: string): string {
  return /^[\w./:-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * The command that verifies this rotation, runnable as printed: secrets are read from files or the environment,
 * never written into it, and an expectation is stated only when the command has what it takes to check it.
 */
export function verifyLines(rotation: {
  base: string;
  clientId: string;
  insecure: boolean;
  newSecretFile: string | undefined;
  kept: { oldSecretFile: string; oldTokenFile: string } | undefined;
  expectOld: "refused" | "accepted";
  expectOldTokens: "valid" | "revoked";
}): string[] {
  // The sandbox serves the API next to the auth server: …/auth and …/api.
  if (!rotation.base.endsWith("/auth")) {
    return ["Verify with event-harness verify-rotation, giving --base-url the sandbox's API base URL."];
  }
  const target = [
    "--auth-url",
    rotation.base,
    "--base-url",
    `${rotation.base.slice(0, -"/auth".length)}/api`,
    "--client-id",
    rotation.clientId,
    ...(rotation.insecure ? ["--insecure"] : []),
  ];
  const command = (env: string, args: readonly string[]) =>
    `Verify with: ${env}event-harness verify-rotation ${[...args, ...target].map(quoteForShell).join(" ")}`;
  // Next time, a token taken before the rotation lets verify-rotation check earlier tokens as well.
  const takeTokenFirst = `  (to check earlier tokens too, take one before rotating, with the current secret in ${CURRENT_SECRET_ENV}: EVENT_API_OLD_ACCESS_TOKEN=$(event-harness token ${target.map(quoteForShell).join(" ")}))`;
  if (rotation.newSecretFile === undefined) {
    return [
      command("", ["--expect-old", rotation.expectOld]),
      `  (with the new secret in ${CURRENT_SECRET_ENV} and the old one in EVENT_API_OLD_CLIENT_SECRET; earlier tokens are not checked: --secret-file keeps a token from before the rotation)`,
      takeTokenFirst,
    ];
  }
  const newSecret = `${CURRENT_SECRET_ENV}="$(cat ${quoteForShell(displayPath(rotation.newSecretFile))})" `;
  if (rotation.kept === undefined) {
    return [
      command(newSecret, []),
      `  (the old secret and earlier tokens are not checked: with the current secret in ${CURRENT_SECRET_ENV}, sandbox-rotate keeps them for verification)`,
      takeTokenFirst,
    ];
  }
  return [
    command(newSecret, [
      "--old-secret-file",
      displayPath(rotation.kept.oldSecretFile),
      "--old-token-file",
      displayPath(rotation.kept.oldTokenFile),
      "--expect-old",
      rotation.expectOld,
      "--expect-old-tokens",
      rotation.expectOldTokens,
    ]),
  ];
}
