import { targetEnvironment } from "../../../cli/run/target-environment.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

describe("targetEnvironment", () => {
  it("hands each target option as the variable its part reads, a flag over the environment", () => {
    expect(
      targetEnvironment(
        { "client-id": "flag-client", insecure: true },
        { EVENT_API_CLIENT_ID: "env-client", EVENT_API_CLIENT_SECRET: "env-secret", UNRELATED: "x" },
      ),
    ).toEqual({
      EVENT_API_CLIENT_ID: "flag-client",
      EVENT_API_CLIENT_SECRET: "env-secret",
      EVENT_API_INSECURE: "1",
    });
  });

  it("sends a repeatable option one value a line, and leaves out false and blank values", () => {
    const env = targetEnvironment(
      { "token-param": ["a=1", "b=2"], insecure: false, scope: "  " },
      { EVENT_API_INSECURE: "1" },
    );
    expect(env).toEqual({ EVENT_API_TOKEN_PARAMS: "a=1\nb=2" });
  });

  it("is empty with nothing given", () => {
    expect(targetEnvironment({}, {})).toEqual({});
  });
});
