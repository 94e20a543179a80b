import { describe, expect, it } from "vitest";
import type { Clock, SandboxOptions } from "../../sandbox/index.ts";
import { checkTokenPath, DEMO_CLIENT } from "../../sandbox/index.ts";
import { resolveOptions } from "../../sandbox/options.ts";

describe("resolveOptions", () => {
  it("fills in every default: loopback, an ephemeral port, 300 s tokens, the demo client, production rules", () => {
    const config = resolveOptions({});
    expect({ ...config, clock: undefined, adminToken: undefined, faults: [...config.faults] }).toEqual({
      host: "127.0.0.1",
      port: 0,
      expiresIn: 300,
      maxTokenAgeSeconds: 86_400,
      clients: [{ clientId: "sandbox-demo", clientSecret: "sandbox-demo-secret" }],
      faults: [],
      faultRate: 0.2,
      faultSeed: 1,
      clock: undefined,
      journalPath: undefined,
      maxBodyBytes: 65_536,
      maxEvents: 100_000,
      eventStrictness: "production",
      adminToken: undefined,
      tokenPath: "/auth/oauth/token",
      tls: undefined,
      latencyMs: 0,
      throughputLimit: undefined,
      queueLimitMs: 1_000,
    });
    expect(Math.abs(config.clock.now() - Date.now())).toBeLessThan(60_000);
  });

  it("draws a fresh admin token of 256 random bits per start when none is given", () => {
    const one = resolveOptions({}).adminToken;
    const two = resolveOptions({}).adminToken;
    expect(one).not.toBe(two);
    expect(Buffer.from(one, "base64url")).toHaveLength(32);
    expect(one).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("keeps what it is given: clock, faults, journal, TLS, token path, an admin token", () => {
    const clock: Clock = { now: () => 42 };
    const tls = { key: "KEY", cert: "CERT" };
    const config = resolveOptions({
      host: "::1",
      port: 65_535,
      clock,
      faults: ["events-accept-invalid", "events-accept-invalid"],
      journalPath: "/tmp/journal.ndjson",
      tls,
      tokenPath: "/realms/harness/protocol/openid-connect/token",
      adminToken: "abcdefghijklmnop",
      throughputLimit: 250,
      eventStrictness: "lenient",
    });
    expect(config.host).toBe("::1");
    expect(config.port).toBe(65_535);
    expect(config.clock.now()).toBe(42);
    expect([...config.faults]).toEqual(["events-accept-invalid"]);
    expect(config.journalPath).toBe("/tmp/journal.ndjson");
    expect(config.tls).toBe(tls);
    expect(config.tokenPath).toBe("/realms/harness/protocol/openid-connect/token");
    expect(config.adminToken).toBe("abcdefghijklmnop");
    expect(config.throughputLimit).toBe(250);
    expect(config.eventStrictness).toBe("lenient");
  });

  it.each<[string, SandboxOptions]>([
    [
      "the lowest of each bound",
      { expiresIn: 1, maxTokenAgeSeconds: 1, maxBodyBytes: 1, maxEvents: 1, faultSeed: 0 },
    ],
    [
      "the highest of each bound",
      {
        port: 65_535,
        expiresIn: 31_536_000,
        maxTokenAgeSeconds: 315_360_000,
        faultRate: 1,
        faultSeed: 0xffff_ffff,
        maxBodyBytes: 64 * 1024 * 1024,
        maxEvents: 10_000_000,
        latencyMs: 10_000,
        throughputLimit: 1_000_000,
        queueLimitMs: 10_000,
      },
    ],
    [
      "no fault rate, no latency, no queue",
      { faultRate: 0, latencyMs: 0, queueLimitMs: 0, throughputLimit: 1 },
    ],
  ])("takes %s", (_what, options) => {
    const config = resolveOptions(options);
    for (const [key, value] of Object.entries(options))
      expect(config[key as keyof typeof config], key).toBe(value);
  });

  it.each<[SandboxOptions, RegExp]>([
    [{ port: -1 }, /^port must be a whole number from 0 to 65535, got -1$/],
    [{ port: 65_536 }, /^port must be a whole number from 0 to 65535, got 65536$/],
    [{ expiresIn: 31_536_001 }, /^expiresIn must be a whole number from 1 to 31536000/],
    [{ expiresIn: Number.NaN }, /^expiresIn must be a whole number from 1 to 31536000, got NaN$/],
    [
      { expiresIn: 60, maxTokenAgeSeconds: 59 },
      /^maxTokenAgeSeconds must be a whole number from 60 to 315360000/,
    ],
    [{ maxTokenAgeSeconds: 315_360_001 }, /^maxTokenAgeSeconds must be/],
    [{ faultRate: -0.01 }, /^faultRate must be a number from 0 to 1, got -0.01$/],
    [{ faultRate: Number.POSITIVE_INFINITY }, /^faultRate must be a number from 0 to 1/],
    [{ faultRate: Number.NaN }, /^faultRate must be a number from 0 to 1, got NaN$/],
    [{ faultSeed: 2 ** 32 }, /^faultSeed must be a whole number from 0 to 4294967295/],
    [{ maxBodyBytes: 64 * 1024 * 1024 + 1 }, /^maxBodyBytes must be a whole number from 1 to 67108864/],
    [{ maxEvents: 0 }, /^maxEvents must be a whole number from 1 to 10000000, got 0$/],
    [{ latencyMs: -1 }, /^latencyMs must be a whole number from 0 to 10000, got -1$/],
    [{ throughputLimit: 0 }, /^throughputLimit must be a whole number from 1 to 1000000, got 0$/],
    [{ throughputLimit: 1_000_001 }, /^throughputLimit must be a whole number from 1 to 1000000/],
    [{ throughputLimit: 2.5 }, /^throughputLimit must be a whole number/],
    [{ queueLimitMs: 10_001 }, /^queueLimitMs must be a whole number from 0 to 10000, got 10001$/],
    [{ eventStrictness: "loose" as never }, /^eventStrictness must be one of complete, production, lenient$/],
    [{ adminToken: "too-short" }, /adminToken must be 16 to 512 characters long, got 9/],
  ])("refuses %j with a RangeError naming the option", (options, message) => {
    expect(() => resolveOptions(options)).toThrow(RangeError);
    expect(() => resolveOptions(options)).toThrow(message);
  });

  it("refuses a client without an id or a secret with a TypeError, naming the client but never its secret", () => {
    expect(() => resolveOptions({ clients: [{ clientId: "", clientSecret: "x" }] })).toThrow(TypeError);
    const noSecret = () => resolveOptions({ clients: [{ clientId: "shop", clientSecret: "" }] });
    expect(noSecret).toThrow(new TypeError("the clientSecret of shop must be non-empty"));
    const twice = () =>
      resolveOptions({
        clients: [
          { clientId: "shop", clientSecret: "first-secret" },
          { clientId: "shop", clientSecret: "second-secret" },
        ],
      });
    expect(twice).toThrow(new RangeError("clientId shop is listed twice"));
  });

  it("copies the clients into frozen records of id and secret only, so a caller's later change reaches nothing", () => {
    const mine = [{ clientId: "shop", clientSecret: "one", extra: "dropped" }];
    const { clients } = resolveOptions({ clients: mine });
    mine[0] = { clientId: "other", clientSecret: "two", extra: "" };
    expect(clients).toEqual([{ clientId: "shop", clientSecret: "one" }]);
    expect(Object.isFrozen(clients)).toBe(true);
    expect(Object.isFrozen(clients[0])).toBe(true);
    expect(DEMO_CLIENT).toEqual({ clientId: "sandbox-demo", clientSecret: "sandbox-demo-secret" });
  });
});

describe("checkTokenPath", () => {
  it.each([
    "/auth/oauth/token",
    "/realms/harness/protocol/openid-connect/token",
    "/t",
    "/apix/token",
    "/a.b~c_d-e",
    "/.hidden/..token",
  ])("takes %s", (path) => {
    expect(checkTokenPath(path)).toBe(path);
  });

  it.each([
    "",
    "auth/oauth/token",
    "/",
    "//token",
    "/auth/",
    "/auth/../admin",
    "/x/../api/events",
    "/auth/./oauth/token",
    "/..",
    "/a b",
    "/tok%65n",
    "/token?x=1",
    "/é",
  ])(
    // A dot segment is no plain segment: a client's URL parser removes it, so "/x/../api/events" would reach the events.
    "refuses %j, which is no absolute path of plain segments",
    (path) => {
      expect(() => checkTokenPath(path)).toThrow(
        new RangeError(`tokenPath must be an absolute path of plain segments, got ${JSON.stringify(path)}`),
      );
    },
  );

  it.each([
    "/api",
    "/api/events",
    "/auth/.well-known/jwks.json",
    "/auth/admin",
    "/auth/admin/clients/x/rotate",
  ])("refuses %s, which would shadow an endpoint the sandbox serves", (path) => {
    expect(() => checkTokenPath(path)).toThrow(
      new RangeError(`tokenPath ${path} would shadow another sandbox endpoint`),
    );
  });
});
