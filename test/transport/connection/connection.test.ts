import { describe, expect, it } from "vitest";
import { connectionFromEnv, DIRECT } from "../../../transport/connection/index.ts";

describe("connectionFromEnv", () => {
  it("reaches the target directly with the usual roots when the environment names nothing", () => {
    expect(connectionFromEnv({}, false)).toEqual(DIRECT);
    expect(connectionFromEnv({}, true)).toEqual({ ...DIRECT, insecure: true });
  });

  it("takes each proxy from either spelling, the lower-case one first, trimmed", () => {
    expect(
      connectionFromEnv(
        {
          HTTP_PROXY: " http://upper:1 ",
          https_proxy: "\thttp://lower:2\n",
          HTTPS_PROXY: "http://upper:3",
          no_proxy: " a.test,b.test ",
        },
        false,
      ).proxy,
    ).toEqual({ httpProxy: "http://upper:1", httpsProxy: "http://lower:2", noProxy: "a.test,b.test" });
  });

  it("names a CA file only when NODE_EXTRA_CA_CERTS holds one", () => {
    expect(connectionFromEnv({ NODE_EXTRA_CA_CERTS: " /etc/ca.pem " }, false).caFile).toBe("/etc/ca.pem");
    for (const blank of ["", "   "]) {
      expect(Object.keys(connectionFromEnv({ NODE_EXTRA_CA_CERTS: blank }, false))).not.toContain("caFile");
    }
  });
});
