import type { Refusal } from "../../../contracts/checks/refusal.ts";
import {
  BEARER_REFUSAL,
  describeRefusal,
  INVALID_CLIENT,
  isRefusal,
  REFUSED_GRANT,
  REFUSED_TOKEN,
  REJECTED_CONTENT,
} from "../../../contracts/checks/refusal.ts";
import type { HttpResponse } from "../../../contracts/probe/http-request.ts";
import { UndecidableError } from "../../../core/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

const status = (code: number): HttpResponse => ({
  status: code,
  headers: {},
  text: "",
  json: undefined,
  durationMs: 1,
});

describe("describeRefusal", () => {
  it("lists the statuses with 'or' before the last, and the rule", () => {
    expect(describeRefusal(INVALID_CLIENT)).toBe("400 or 401 (RFC 6749 §5.2 invalid_client)");
    expect(describeRefusal(BEARER_REFUSAL)).toBe("400, 401 or 403 (RFC 6750 §3.1)");
    expect(describeRefusal(REFUSED_GRANT)).toBe("400 (RFC 6749 §5.2 unsupported_grant_type)");
  });
});

describe("isRefusal", () => {
  it("counts only the statuses the rule names", () => {
    const table: ReadonlyArray<readonly [Refusal, readonly number[]]> = [
      [INVALID_CLIENT, [400, 401]],
      [REFUSED_GRANT, [400]],
      [REFUSED_TOKEN, [401, 403]],
      [BEARER_REFUSAL, [400, 401, 403]],
      [REJECTED_CONTENT, [400, 415, 422]],
    ];
    const tried = [200, 201, 204, 301, 302, 400, 401, 403, 404, 405, 409, 413, 415, 422, 451];
    for (const [refusal, statuses] of table) {
      expect(
        tried.filter((code) => isRefusal(status(code), refusal)),
        refusal.rule,
      ).toEqual(statuses);
    }
  });

  it("cannot decide on a 429: the target did not judge the request", () => {
    expect(() => isRefusal(status(429), INVALID_CLIENT)).toThrow(
      new UndecidableError("the target answered 429 (too many requests) instead of judging the request"),
    );
  });
});
