import { tokenCommand } from "../../../cli/commands/token.ts";
import { runContract } from "../../../cli/contract/run-contract.ts";
import { DIRECT } from "../../../contracts/index.ts";
import { describe, expect } from "../../support/fixtures.ts";
import type { HydraLikeServer } from "../../support/hydra-like-server.ts";
import { hydraTest as it } from "../../support/hydra-like-server.ts";
import { runInProcess } from "../../support/run-in-process.ts";

/** A base URL the Hydra-like client is not registered for: every token request that names it is refused. */
const UNREGISTERED = "https://api.unregistered.example.com";
const REASON = `Requested audience '${UNREGISTERED}' has not been whitelisted by the OAuth 2.0 Client.`;

const target = (hydra: HydraLikeServer, ...extra: string[]) => [
  "--token-url",
  hydra.tokenUrl,
  "--base-url",
  UNREGISTERED,
  "--client-id",
  hydra.clientId,
  ...extra,
];

describe("a server's reason, at the end of a long error_description", () => {
  it("reaches the console whole when the preflight quotes the answer", async ({ hydra }) => {
    const run = await runInProcess(tokenCommand, target(hydra, "--client-auth", "basic"), {
      EVENT_API_CLIENT_SECRET: hydra.clientSecret,
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(`answered 400 application/json invalid_request: "`);
    // Hydra blames the audience (the base URL here) in those last words: the preflight says so, once.
    expect(run.stderr).toContain(
      `refused the audience ${UNREGISTERED} (the base URL, which is the audience unless --audience sets one) for client ${hydra.clientId}: `,
    );
    expect(run.stderr).toContain(
      `${REASON}", and gave a token to the same request without it; check --base-url`,
    );
    expect(run.stderr).not.toContain(hydra.clientSecret);
  });

  it("reaches a failed check's message", async ({ hydra }) => {
    const [issued] = await runContract({
      target: {
        tokenUrl: hydra.tokenUrl,
        baseUrl: UNREGISTERED,
        clientId: hydra.clientId,
        clientSecret: hydra.clientSecret,
        audience: UNREGISTERED,
        clientAuth: "basic",
        connection: DIRECT,
        timeoutMs: 5_000,
        embedded: false,
      },
      profile: "fast",
      only: ["token.issued"],
      seed: 3,
      runId: "server-reason",
    });
    expect(issued?.status).toBe("FAIL");
    expect(issued?.message).toMatch(/received 400 application\/json invalid_request: "/);
    expect(issued?.message).toContain(`${REASON}"`);
  });
});

describe("a second client authentication that gets past the credentials", () => {
  it("says what that answer was, not that the credentials were refused", async ({ hydra }) => {
    const run = await runInProcess(tokenCommand, target(hydra), {
      EVENT_API_CLIENT_SECRET: hydra.clientSecret,
    });
    expect(run.code).toBe(3);
    expect(run.stderr).not.toContain("check the client id and secret");
    expect(run.stderr).toContain(
      `client ${hydra.clientId} was refused with --client-auth post (401 invalid_client), `,
    );
    expect(run.stderr).toContain(
      `but with --client-auth basic the token endpoint answered 400 application/json invalid_request: "The request`,
    );
    expect(run.stderr).toContain(`${REASON}", which is not a refusal of the credentials`);
    expect(run.stderr).toContain("(--client-auth basic)");
  });
});
