import { describe, expect, it } from "vitest";
import { describeCounts, describeTarget, verdictOf } from "../../../reporting/contract/index.ts";
import { countByStatus, namedIds, rerunOf } from "../../../reporting/contract/run-summary.ts";
import type { Target } from "../../../transport/index.ts";
import { Secret } from "../../../transport/index.ts";
import { checkResult as check } from "../../support/check-result.ts";

const SECRET = "s3cr3t-client-value";
const PARAM_VALUE = "param-value-kept-out";

const TARGET: Target = {
  tokenUrl: "https://auth.example/oauth/token",
  baseUrl: "https://api.example/v1",
  clientId: "harness-ci",
  clientSecret: new Secret(SECRET),
  clientAuth: "post",
  timeoutMs: 5000,
  connection: { insecure: false, proxy: { httpProxy: "", httpsProxy: "", noProxy: "" } },
  embedded: false,
};

describe("describeTarget", () => {
  it("says where the target is and as whom, and nothing of what was left unset", () => {
    expect(describeTarget(TARGET)).toEqual({
      tokenUrl: "https://auth.example/oauth/token",
      baseUrl: "https://api.example/v1",
      clientId: "harness-ci",
      clientAuth: "post",
      insecure: false,
      embedded: false,
    });
  });

  it("names the further token parameters but never their values, nor the client secret", () => {
    const described = describeTarget({
      ...TARGET,
      audience: "https://api.example/v1",
      scope: "events:write",
      resource: "https://api.example/",
      tokenParams: { tenant: PARAM_VALUE, realm: PARAM_VALUE },
      connection: { ...TARGET.connection, insecure: true, caFile: "/etc/ca.pem" },
    });
    expect(described).toMatchObject({
      audience: "https://api.example/v1",
      scope: "events:write",
      resource: "https://api.example/",
      tokenParams: ["tenant", "realm"],
      insecure: true,
      caFile: "/etc/ca.pem",
    });
    const json = JSON.stringify(described);
    expect(json).not.toContain(SECRET);
    expect(json).not.toContain(PARAM_VALUE);
  });

  it("names the proxy that applied without its user info, and none that no_proxy excluded", () => {
    const proxy = { httpProxy: "", httpsProxy: "http://user:pw@proxy.internal:3128", noProxy: "" };
    const described = describeTarget({ ...TARGET, connection: { ...TARGET.connection, proxy } });
    expect(described.proxy).toBe("http://proxy.internal:3128");
    expect(JSON.stringify(described)).not.toContain("pw@");
    const excluded = describeTarget({
      ...TARGET,
      connection: { ...TARGET.connection, proxy: { ...proxy, noProxy: "example" } },
    });
    expect(excluded.proxy).toBeUndefined();
  });

  it("records the issuer, and the token endpoint's origin when it lies on another one", () => {
    expect(describeTarget({ ...TARGET, issuer: "https://idp.example/realms/x" })).toMatchObject({
      issuer: "https://idp.example/realms/x",
      tokenEndpointOrigin: "https://auth.example",
    });
    expect(
      describeTarget({ ...TARGET, issuer: "https://auth.example/" }).tokenEndpointOrigin,
    ).toBeUndefined();
  });
});

describe("countByStatus", () => {
  it("counts every status, zero for those that did not occur", () => {
    expect(countByStatus([check("a", "PASS"), check("b", "PASS"), check("c", "WAIVED")])).toEqual({
      PASS: 2,
      WARN: 0,
      FAIL: 0,
      ERROR: 0,
      SKIP: 0,
      WAIVED: 1,
    });
    expect(Object.values(countByStatus([])).every((n) => n === 0)).toBe(true);
  });
});

describe("verdictOf", () => {
  it("is undecided when the target could not be tested, whatever the checks", () => {
    expect(verdictOf({ checks: [check("a", "FAIL")], couldNotTest: "no token" })).toBe("undecided");
  });

  it("passes a run whose only problems were waived, warned or skipped", () => {
    expect(verdictOf({ checks: [check("a", "WAIVED"), check("b", "WARN"), check("c", "SKIP")] })).toBe(
      "passed",
    );
    expect(verdictOf({ checks: [] })).toBe("passed");
  });
});

describe("namedIds and describeCounts", () => {
  it("names up to five ids of a status, then how many more", () => {
    const failures = ["a", "b", "c", "d", "e", "f", "g"].map((id) => check(`x.${id}`, "FAIL"));
    expect(namedIds(failures, "FAIL")).toBe("x.a, x.b, x.c, x.d, x.e and 2 more");
    expect(namedIds(failures.slice(0, 5), "FAIL")).toBe("x.a, x.b, x.c, x.d, x.e");
    expect(namedIds(failures, "ERROR")).toBe("");
  });

  it("counts only the statuses that occurred, worst first, naming what failed or could not be decided", () => {
    const checks = [
      check("p1", "PASS"),
      check("w1", "WARN"),
      check("e1", "ERROR"),
      check("p2", "PASS"),
      check("f1", "FAIL"),
      check("s1", "SKIP"),
      check("v1", "WAIVED"),
    ];
    expect(describeCounts(checks)).toBe("1 FAIL (f1), 1 ERROR (e1), 1 WAIVED, 1 WARN, 1 SKIP, 2 PASS");
    expect(describeCounts([check("p", "PASS")])).toBe("1 PASS");
    expect(describeCounts([])).toBe("");
  });
});

describe("rerunOf", () => {
  it("repeats the run's own command line, or the bare command when it kept none", () => {
    expect(rerunOf({ rerun: "npx --no-install event-harness contract --profile full" })).toBe(
      "npx --no-install event-harness contract --profile full",
    );
    expect(rerunOf({})).toBe("npx --no-install event-harness contract");
  });
});
