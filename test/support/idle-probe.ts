import { DIRECT, Probe, Redactor, Secret } from "../../contracts/index.ts";

/** A probe never asked to send anything, for tests whose checks or properties decide without a target. */
export function idleProbe(): Probe {
  return new Probe({
    target: {
      tokenUrl: "http://127.0.0.1:9/oauth/token",
      baseUrl: "http://127.0.0.1:9",
      clientId: "unused",
      clientSecret: new Secret("unused-secret"),
      clientAuth: "post",
      connection: DIRECT,
      timeoutMs: 1_000,
      embedded: false,
    },
    redactor: new Redactor(),
    nextEvent: () => ({}),
    eventBreakers: [],
  });
}
