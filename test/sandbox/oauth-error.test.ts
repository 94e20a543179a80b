import { describe, expect, it } from "vitest";
import { NO_STORE_HEADERS, oauthError, REALM, replyOAuthError } from "../../sandbox/oauth-error.ts";
import { replyAnswer } from "../support/reply-server.ts";

describe("oauthError", () => {
  it("makes an RFC 6749 §5.2 error, with no Basic challenge unless asked", () => {
    expect(oauthError(400, "invalid_request", "The parameter grant_type is missing")).toEqual({
      status: 400,
      error: "invalid_request",
      description: "The parameter grant_type is missing",
      basicChallenge: false,
    });
    expect(oauthError(401, "invalid_client", "x", true).basicChallenge).toBe(true);
  });
});

describe("replyOAuthError", () => {
  it("answers JSON with error and error_description, and headers that keep it out of every cache", async () => {
    const answer = await replyAnswer((res) =>
      replyOAuthError(
        res,
        oauthError(400, "unsupported_grant_type", "Only client_credentials is supported"),
        false,
      ),
    );
    expect(answer.status).toBe(400);
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(answer.headers["cache-control"]).toBe("no-store");
    expect(answer.headers.pragma).toBe("no-cache");
    expect(answer.headers["www-authenticate"]).toBeUndefined();
    expect(JSON.parse(answer.text)).toEqual({
      error: "unsupported_grant_type",
      error_description: "Only client_credentials is supported",
    });
  });

  it("adds a Basic challenge naming the realm and UTF-8 to a 401 after HTTP Basic (RFC 6749 §5.2, RFC 7617)", async () => {
    const answer = await replyAnswer((res) =>
      replyOAuthError(res, oauthError(401, "invalid_client", "Client authentication failed", true), false),
    );
    expect(answer.status).toBe(401);
    expect(answer.headers["www-authenticate"]).toBe('Basic realm="event-api-sandbox", charset="UTF-8"');
    expect(REALM).toBe("event-api-sandbox");
  });

  it("under the plain-text fault: the status's reason and the description, without the error code", async () => {
    const answer = await replyAnswer((res) =>
      replyOAuthError(res, oauthError(413, "invalid_request", "The request body is too large"), true),
    );
    expect(answer.status).toBe(413);
    expect(answer.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(answer.headers["cache-control"]).toBe("no-store");
    expect(answer.text).toBe("Payload Too Large: The request body is too large\n");
    expect(answer.text).not.toContain("invalid_request");
  });

  it("keeps its no-store headers frozen, so no reply can change them for the next", () => {
    expect(NO_STORE_HEADERS).toEqual({ "cache-control": "no-store", pragma: "no-cache" });
    expect(Object.isFrozen(NO_STORE_HEADERS)).toBe(true);
  });
});
