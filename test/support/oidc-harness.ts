import { test } from "./fixtures.ts";
import { type OidcProviderTarget, startOidcProviderTarget } from "./oidc-provider-target.ts";
import { type CliRun, runCli } from "./run-cli.ts";

/** The harness's client at the oidc-provider target, and the secret a restart rotates it to. */
export const OIDC_CLIENT_ID = "release-check";
export const OIDC_SECRET = "oidc-provider-secret-1f5e9c";
export const OIDC_NEW_SECRET = "oidc-provider-secret-rotated-77a2";
/** The access tokens' lifetime in seconds, fixed from issue. */
export const OIDC_TTL = 10;

export interface OidcHarness {
  readonly target: OidcProviderTarget;
  /** The target flags: the token endpoint, the API, the client, the scope and the API as the resource (RFC 8707). */
  targetArgs(): string[];
  /** Runs the real CLI with the secret in the environment; its output is kept for the search for secrets. */
  harness(args: readonly string[], secret?: string, env?: NodeJS.ProcessEnv): Promise<CliRun>;
  /** Every stdout and stderr of the file's runs. */
  readonly outputs: readonly string[];
}

/** The shared fixtures plus `oidc`: one oidc-provider target per file, closed after its last test. */
export const oidcTest = test.extend(
  "oidc",
  { scope: "file" },
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
  async ({}, { onCleanup }): Promise<OidcHarness> => {
    const target = await startOidcProviderTarget({
      clientId: OIDC_CLIENT_ID,
      clientSecret: OIDC_SECRET,
      ttl: OIDC_TTL,
      requireResource: true,
    });
    onCleanup(() => target.close());
    const outputs: string[] = [];
    return {
      target,
      outputs,
      targetArgs: () => [
        ...["--token-url", target.tokenUrl, "--base-url", target.baseUrl, "--client-id", OIDC_CLIENT_ID],
        ...["--scope", "profile email", "--resource", target.baseUrl],
      ],
      async harness(args, secret = OIDC_SECRET, env = {}) {
        const run = await runCli(
          args,
          {
            EVENT_API_CLIENT_SECRET: secret,
            ...(process.env.K6_BIN ? { K6_BIN: process.env.K6_BIN } : {}),
            ...env,
          },
          150_000,
        );
        outputs.push(run.stdout, run.stderr);
        return run;
      },
    };
  },
);
