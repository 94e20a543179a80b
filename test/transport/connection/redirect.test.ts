import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send } from "../../../contracts/probe/send.ts";
import {
  DIRECT,
  describeRedirect,
  isRedirect,
  locationOrigin,
  readCappedText,
  undiciDispatcher,
} from "../../../transport/connection/index.ts";
import type { RedirectTarget } from "../../support/redirect-server.ts";
import { startRedirectTarget } from "../../support/redirect-server.ts";

const TIMEOUT_MS = 10_000;
const SECRET_FORM = "client_id=c&client_secret=redirect-unit-secret";

describe("locationOrigin: where a redirect points, never its path, query or user info", () => {
  it.each([
    ["http://127.0.0.1:9999/steal?token=abc", "http://127.0.0.1:9999"],
    ["https://user:pw@evil.example/x#y", "https://evil.example:443"],
    ["HTTP://EVIL.example/", "http://evil.example:80"],
    ["/relative/path?q=1", "http://target.example:8080"],
    ["//other.example:81/p", "http://other.example:81"],
    ["http://[::1]:8443/p", "http://[::1]:8443"],
  ])("%s → %s", (location, origin) => {
    expect(locationOrigin(location, "http://target.example:8080/oauth/token")).toBe(origin);
  });

  it.each([undefined, "", "  ", "javascript:alert(1)", "data:text/plain,x", "http://[bad"])(
    "%s → none",
    (location) => {
      expect(locationOrigin(location, "http://target.example/")).toBeUndefined();
    },
  );

  it("a redirect's reason names the status and the origin only", () => {
    const said = describeRedirect(307, "http://127.0.0.1:9/a/b?secret=s3cr3t", "http://127.0.0.1:8/x");
    expect(said).toBe(
      "307 with a redirect to http://127.0.0.1:9 (not followed: credentials go to the configured URL only)",
    );
    expect(describeRedirect(302, undefined, "http://a/")).toContain("302 with a redirect without a Location");
    expect(describeRedirect(301, "\u001b]8;;x\u0007", "http://a/")).not.toContain("\u001b");
  });

  it("every 3xx is a redirect, nothing else", () => {
    expect([299, 300, 307, 308, 399, 400].map(isRedirect)).toEqual([false, true, true, true, true, false]);
  });
});

describe("the Node senders follow no redirect by default (proved, not assumed)", () => {
  let target: RedirectTarget;
  beforeAll(async () => {
    target = await startRedirectTarget({ redirect: ["token", "events"], status: 308 });
  });
  afterAll(async () => {
    await target.close();
  });

  it("Pactum (the contract's send) returns the 308 and sends nothing to the Location", async () => {
    const response = await send(
      {
        method: "POST",
        url: `${target.url}/auth/oauth/token`,
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: "Basic Yzpz" },
        body: SECRET_FORM,
      },
      TIMEOUT_MS,
      DIRECT,
    );
    expect(response.status).toBe(308);
    expect(locationOrigin(response.headers.location, target.url)).toBe(target.otherOrigin);
    expect(target.caught).toEqual([]);
  });

  it("undici's request() with the harness's dispatcher returns the 308 and sends nothing to the Location", async () => {
    const response = await request(`${target.url}/api/events`, {
      method: "POST",
      headers: { authorization: "Bearer redirect-unit-token", "content-type": "application/json" },
      body: "{}",
      dispatcher: await undiciDispatcher(DIRECT),
    });
    await readCappedText(response.body);
    expect(response.statusCode).toBe(308);
    expect(target.caught).toEqual([]);
  });
});
