import { runRedactor } from "../../../cli/run/run-redactor.ts";
import { UsageError } from "../../../core/index.ts";
import { DIRECT } from "../../../transport/connection/index.ts";
import type { Target } from "../../../transport/index.ts";
import { MAX_TOKEN_CHARS, Secret } from "../../../transport/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

const demo = { clientId: "demo-client", clientSecret: "demo-secret-51" };

const external: Target = {
  tokenUrl: "https://idp.example/oauth/token",
  baseUrl: "https://api.example",
  clientId: "ci-client",
  clientSecret: new Secret("target-secret-93"),
  clientAuth: "basic",
  tokenParams: { api_key: "param-value-77" },
  timeoutMs: 5_000,
  connection: DIRECT,
  embedded: false,
};

const basic = (id: string, secret: string) => Buffer.from(`${id}:${secret}`).toString("base64");

describe("runRedactor", () => {
  it("hides the embedded sandbox's demo secret and its Basic credentials", () => {
    const redactor = runRedactor(undefined, demo, {});
    expect(redactor.redact("secret demo-secret-51")).toBe("secret <CLIENT_SECRET>");
    expect(redactor.redact(`Basic ${basic("demo-client", "demo-secret-51")}`)).toBe(
      "Basic <BASIC_CREDENTIALS>",
    );
  });

  it("hides a target's secret, the old secret and token from the environment, and the token parameters", () => {
    const oldToken = `old.${"t".repeat(60)}.token`;
    const redactor = runRedactor(external, demo, {
      EVENT_API_OLD_CLIENT_SECRET: "  old-secret-12 \n",
      EVENT_API_OLD_ACCESS_TOKEN: ` ${oldToken} `,
    });
    const text = [
      "target-secret-93",
      basic("ci-client", "target-secret-93"),
      "old-secret-12",
      basic("ci-client", "old-secret-12"),
      oldToken,
      "param-value-77",
      Buffer.from("param-value-77").toString("base64"),
    ].join(" ");
    expect(redactor.redact(text)).toBe(
      "<CLIENT_SECRET> <BASIC_CREDENTIALS> <CLIENT_SECRET> <BASIC_CREDENTIALS> <OLD_ACCESS_TOKEN> <TOKEN_PARAM:api_key> <TOKEN_PARAM:api_key>",
    );
    // The demo client is not the run's when a target is named.
    expect(redactor.redact("demo-secret-51")).toBe("demo-secret-51");
  });

  it("ignores blank old values", () => {
    const redactor = runRedactor(external, demo, {
      EVENT_API_OLD_CLIENT_SECRET: " ",
      EVENT_API_OLD_ACCESS_TOKEN: "",
    });
    expect(redactor.redact("a b")).toBe("a b");
  });

  it("refuses an old token too long to hide, before anything runs", () => {
    let error: unknown;
    try {
      runRedactor(external, demo, { EVENT_API_OLD_ACCESS_TOKEN: "x".repeat(MAX_TOKEN_CHARS + 1) });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).code).toBe("invalid-value");
    expect((error as UsageError).message).toMatch(
      /^EVENT_API_OLD_ACCESS_TOKEN has [\d,]+ characters, more than/,
    );
  });
});
