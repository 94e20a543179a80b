import { premiseAcceptedEvent, premiseIssuedToken, premiseToken } from "../../../contracts/checks/premise.ts";
import { Secret } from "../../../contracts/index.ts";
import { PrerequisiteError } from "../../../core/index.ts";
import { sandboxProbe } from "../../support/contract-checks.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { startInterposingServer } from "../../support/interposing-server.ts";

describe("premiseToken and premiseIssuedToken", () => {
  it("give the token the given credentials get, with its expires_in, recorded as a premise", async ({
    sandbox,
  }) => {
    const target = await sandbox({ expiresIn: 77 });
    const probe = sandboxProbe(target);
    const issued = await premiseIssuedToken(probe);
    expect(issued.expiresIn).toBe(77);
    expect(issued.accessToken.split(".")).toHaveLength(3);
    expect(await premiseToken(probe)).toEqual(expect.any(String));
    expect(probe.evidence.map((evidence) => evidence.label)).toEqual([
      "premise: token request with the given credentials",
      "premise: token request with the given credentials",
    ]);
  });

  it("give no expires_in for one that is not a positive whole number", async ({ sandbox }) => {
    const probe = sandboxProbe(await sandbox(["token-string-expires-in"]));
    expect((await premiseIssuedToken(probe)).expiresIn).toBeUndefined();
  });

  it("throw PrerequisiteError saying what the credentials got, so a refusal proves nothing", async ({
    sandbox,
  }) => {
    const probe = sandboxProbe(await sandbox(), { clientSecret: new Secret("not-the-secret") });
    const failure = await premiseToken(probe).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PrerequisiteError);
    expect((failure as Error).message).toBe(
      'premise failed: the given credentials got no token (401 application/json {"error":"invalid_client","error_description":"Client authentication failed"}), so a refusal here proves nothing (see token.issued)',
    );
  });

  it("count a success without an access token as no token", async ({ sandbox, onTestFinished }) => {
    const target = await sandbox();
    const front = await startInterposingServer(new URL(target.baseUrl).origin, () => ({
      status: 200,
      headers: { "content-type": "application/json" },
      body: '{"access_token":"","token_type":"Bearer"}',
    }));
    onTestFinished(() => front.close());
    const probe = sandboxProbe(target, { tokenUrl: front.url(target.tokenUrl) });
    await expect(premiseIssuedToken(probe)).rejects.toThrow(
      'premise failed: the given credentials got no token (200 application/json {"access_token":"","token_type":"Bearer"})',
    );
  });
});

describe("premiseAcceptedEvent", () => {
  it("passes where a valid token gets a valid event in", async ({ sandbox }) => {
    const probe = sandboxProbe(await sandbox());
    await expect(premiseAcceptedEvent(probe, await premiseToken(probe))).resolves.toBeUndefined();
    expect(probe.evidence.at(-1)?.label).toBe("premise: create a valid event");
    expect(probe.evidence.at(-1)?.response?.status).toBe(202);
  });

  it("throws PrerequisiteError where the same event is not accepted, so a rejection proves nothing", async ({
    sandbox,
  }) => {
    const target = await sandbox();
    const probe = sandboxProbe(target, { baseUrl: `${target.baseUrl}/elsewhere` });
    const failure = await premiseAcceptedEvent(probe, await premiseToken(probe)).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(PrerequisiteError);
    expect((failure as Error).message).toMatch(
      /^premise failed: a valid event with a valid token was not accepted \(404 .*\), so a rejection here proves nothing \(see events\.accepted\)$/,
    );
  });
});
