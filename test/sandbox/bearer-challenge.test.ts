import { describe, expect, it } from "vitest";
import { BearerChallenger, FORBIDDEN_MESSAGE } from "../../sandbox/bearer-challenge.ts";
import type { FaultName } from "../../sandbox/index.ts";
import { replyAnswer } from "../support/reply-server.ts";

const challenger = (...faults: FaultName[]) => new BearerChallenger(new Set(faults));

describe("BearerChallenger", () => {
  it("answers a request without credentials with 401 and a bare Bearer challenge (RFC 6750 §3.1: no error code)", async () => {
    const answer = await replyAnswer((res) => challenger().reply(res, undefined));
    expect(answer.status).toBe(401);
    expect(answer.headers["www-authenticate"]).toBe('Bearer realm="event-api-sandbox"');
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(answer.text)).toEqual({ Message: "Access to this resource is forbidden" });
  });

  it("answers a refused token with invalid_token and the reason", async () => {
    const answer = await replyAnswer((res) => challenger().reply(res, "The access token expired"));
    expect(answer.status).toBe(401);
    expect(answer.headers["www-authenticate"]).toBe(
      'Bearer realm="event-api-sandbox", error="invalid_token", error_description="The access token expired"',
    );
    expect(JSON.parse(answer.text)).toEqual({ Message: FORBIDDEN_MESSAGE });
  });

  it("adds members to the body when asked, keeping production's message", async () => {
    const answer = await replyAnswer((res) =>
      challenger().reply(res, "The access token expired", { EventRef: "ev-1" }),
    );
    expect(JSON.parse(answer.text)).toEqual({ Message: FORBIDDEN_MESSAGE, EventRef: "ev-1" });
  });

  it("under bearer-no-www-authenticate: the 401 without any challenge", async () => {
    const answer = await replyAnswer((res) => challenger("bearer-no-www-authenticate").reply(res, "bad"));
    expect(answer.status).toBe(401);
    expect(answer.headers["www-authenticate"]).toBeUndefined();
  });

  it("under bearer-5xx: a 500 for a refused token, yet still a 401 for a request without credentials", async () => {
    const refused = await replyAnswer((res) => challenger("bearer-5xx").reply(res, "bad"));
    expect(refused.status).toBe(500);
    expect(JSON.parse(refused.text)).toEqual({ Message: "Internal server error" });
    expect(refused.headers["www-authenticate"]).toBeUndefined();
    const missing = await replyAnswer((res) => challenger("bearer-5xx").reply(res, undefined));
    expect(missing.status).toBe(401);
  });
});
